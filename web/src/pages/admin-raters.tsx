import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { RaterList } from '@/components/admin-raters/rater-list';
import { AdminOnly } from '@/components/auth/admin-only';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Honest votes (beyond the spec): who rated how, the figures that may show dishonest voting, and voiding votes. */
export function AdminRatersPage() {
  useDocumentTitle('Raters');
  return (
    <AdminOnly>
      <PageContainer>
        <PageHeader
          title="Raters"
          description="How each member votes. Void the votes that should not count, with a reason."
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
          <RaterList />
        </div>
      </PageContainer>
    </AdminOnly>
  );
}
