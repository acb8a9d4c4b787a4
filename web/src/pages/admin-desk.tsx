import { ReviewDesk } from '@/components/admin/desk/review-desk';
import { AdminSubpage } from '@/components/admin/admin-subpage';

/** The review desk (beyond the spec): the photo that has waited longest, one at a time, claimed for this admin. */
export function AdminDeskPage() {
  return (
    // Room at the foot for the Undo bar, which floats over the page.
    <AdminSubpage
      title="Review Desk"
      description="The photo that has waited longest, one at a time. While it is on your desk, no other admin decides it."
      className="pb-28"
    >
      <ReviewDesk />
    </AdminSubpage>
  );
}
