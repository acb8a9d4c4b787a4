import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { AdminOnly } from '@/components/auth/admin-only';
import { UserManagement } from '@/components/admin-users/user-management';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function AdminUsersPage() {
  useDocumentTitle('User Management');
  return (
    <AdminOnly>
      <PageContainer>
        <PageHeader
          title="User Management"
          description="View and edit member accounts and permissions."
          actions={
            <Button asChild variant="outline">
              <Link to="/admin">
                <ArrowLeft aria-hidden="true" />
                Admin Panel
              </Link>
            </Button>
          }
        />
        <div className="mt-8">
          <UserManagement />
        </div>
      </PageContainer>
    </AdminOnly>
  );
}
