import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { ReviewDesk } from '@/components/admin/desk/review-desk';
import { AdminOnly } from '@/components/auth/admin-only';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** The review desk (beyond the spec): the photo that has waited longest, one at a time, claimed for this admin. */
export function AdminDeskPage() {
  useDocumentTitle('Review Desk');
  return (
    <AdminOnly>
      {/* Room at the foot for the Undo bar, which floats over the page. */}
      <PageContainer className="pb-28">
        <PageHeader
          title="Review Desk"
          description="The photo that has waited longest, one at a time. While it is on your desk, no other admin decides it."
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
          <ReviewDesk />
        </div>
      </PageContainer>
    </AdminOnly>
  );
}
