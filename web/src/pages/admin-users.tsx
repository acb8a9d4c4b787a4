import { AdminOnly } from '@/components/auth/admin-only';
import { ComingSoonPage } from '@/components/coming-soon';

export function AdminUsersPage() {
  return (
    <AdminOnly>
      <ComingSoonPage title="User Management" description="View and edit member accounts and permissions." />
    </AdminOnly>
  );
}
