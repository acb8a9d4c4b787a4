import { SupportInbox } from '@/components/admin-support/support-inbox';
import { AdminSubpage } from '@/components/admin/admin-subpage';

export function AdminSupportPage() {
  return (
    <AdminSubpage title="User Support" description="Messages sent through the contact form. Set each one's status as you handle it.">
      <SupportInbox />
    </AdminSubpage>
  );
}
