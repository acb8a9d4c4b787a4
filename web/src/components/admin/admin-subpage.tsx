import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { AdminOnly } from '@/components/auth/admin-only';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * A page of the admin panel's own (users, support, the review desk, raters): admins only, titled, with the way back to
 * the panel, and its content below.
 */
export function AdminSubpage({ title, description, className, children }: { title: string; description: string; className?: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <AdminOnly>
      <PageContainer className={className}>
        <PageHeader
          title={title}
          description={description}
          actions={
            <Button asChild variant="outline">
              <Link to="/admin">
                <ArrowLeft aria-hidden="true" />
                Admin Panel
              </Link>
            </Button>
          }
        />
        <div className="mt-8">{children}</div>
      </PageContainer>
    </AdminOnly>
  );
}
