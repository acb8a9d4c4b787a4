import { RaterList } from '@/components/admin-raters/rater-list';
import { AdminSubpage } from '@/components/admin/admin-subpage';

/** Honest votes (beyond the spec): who rated how, the figures that may show dishonest voting, and voiding votes. */
export function AdminRatersPage() {
  return (
    <AdminSubpage title="Raters" description="How each member votes. Void the votes that should not count, with a reason.">
      <RaterList />
    </AdminSubpage>
  );
}
