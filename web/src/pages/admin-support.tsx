import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { SupportInbox } from '@/components/admin-support/support-inbox';
import { AdminOnly } from '@/components/auth/admin-only';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function AdminSupportPage() {
  useDocumentTitle('User Support');
  return (
    <AdminOnly>
      <PageContainer>
        <PageHeader
          title="User Support"
          description="Messages sent through the contact form. Set each one's status as you handle it."
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
          <SupportInbox />
        </div>
      </PageContainer>
    </AdminOnly>
  );
}
