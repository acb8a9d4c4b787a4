import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LifeBuoy, ListChecks, Scale, Users } from 'lucide-react';
import { AdminReviewList } from '@/components/admin/admin-review-list';
import { AdminStatCards } from '@/components/admin/admin-stat-cards';
import { DEFAULT_ADMIN_FILTER } from '@/components/admin/admin-filters';
import { CleanupMenu } from '@/components/admin/cleanup-menu';
import { ReasonTemplatesDialog } from '@/components/admin/reason-templates-dialog';
import { ReportedPhotosList } from '@/components/admin/reported-photos-list';
import { ReviewerFigures } from '@/components/admin/reviewer-figures';
import { UploadAllowanceDialog } from '@/components/admin/upload-allowance-dialog';
import { statsWithHeldDecisions, useHeldDecisions } from '@/components/admin/review-decisions';
import { SupportBadge } from '@/components/admin/support-badge';
import { AdminOnly } from '@/components/auth/admin-only';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import type { AdminPhotoList } from '@/lib/types';
import { useAdminStatsQuery } from '@/queries/admin';
import { useNewContactFormCount } from '@/queries/contact';
import { useReportedPhotosQuery } from '@/queries/reports';

export function AdminPage() {
  useDocumentTitle('Admin Panel');
  return (
    <AdminOnly>
      <AdminPanel />
    </AdminOnly>
  );
}

/**
 * SPEC §2 Admin panel: counters that filter the review list, the links to users and support, and the cleanups; beyond
 * the spec, the review desk, the raters (honest votes), the reason templates and the reviewer figures.
 */
function AdminPanel() {
  const { user } = useAuth();
  const [list, setList] = useState<AdminPhotoList>(DEFAULT_ADMIN_FILTER);
  const [page, setPage] = useState(1);
  const [showReports, setShowReports] = useState(false);
  const stats = useAdminStatsQuery();
  // The first page's total is the tile's count (the same query the list shows first, so one request).
  const reported = useReportedPhotosQuery('newest', 1);
  // Decisions held for their Undo are already counted (one pending fewer, one more approved or rejected today).
  const held = useHeldDecisions();
  const newMessages = useNewContactFormCount();

  const selectList = (next: AdminPhotoList) => {
    setList(next);
    setPage(1);
    setShowReports(false);
  };

  return (
    <PageContainer>
      <PageHeader
        title="Admin Panel"
        description="Review photos, tidy the file store, and look after members."
        actions={
          <>
            <Button asChild>
              <Link to="/admin/desk">
                <ListChecks aria-hidden="true" />
                Review next
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/users">
                <Users aria-hidden="true" />
                Manage Users
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/support">
                <LifeBuoy aria-hidden="true" />
                User Support
                <SupportBadge count={newMessages} />
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/raters">
                <Scale aria-hidden="true" />
                Raters
              </Link>
            </Button>
            <UploadAllowanceDialog />
            <ReasonTemplatesDialog />
            <CleanupMenu />
          </>
        }
      />
      <div className="mt-8 flex flex-col gap-8">
        <AdminStatCards
          selected={showReports ? null : list}
          stats={statsWithHeldDecisions(stats.data, held)}
          onSelect={selectList}
          reports={{ count: reported.data?.total, selected: showReports, onSelect: () => setShowReports(true) }}
        />
        {showReports ? <ReportedPhotosList /> : <AdminReviewList list={list} page={page} onPageChange={setPage} currentUserId={user?.id} />}
        <ReviewerFigures />
      </div>
    </PageContainer>
  );
}
