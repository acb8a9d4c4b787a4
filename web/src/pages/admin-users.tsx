import { UserManagement } from '@/components/admin-users/user-management';
import { AdminSubpage } from '@/components/admin/admin-subpage';

export function AdminUsersPage() {
  return (
    <AdminSubpage title="User Management" description="View and edit member accounts and permissions.">
      <UserManagement />
    </AdminSubpage>
  );
}
