import { AdminOnly } from '@/components/auth/admin-only';
import { ComingSoonPage } from '@/components/coming-soon';

export function AdminPage() {
  return (
    <AdminOnly>
      <ComingSoonPage title="Admin Panel" description="Review photos, manage users and answer support messages." />
    </AdminOnly>
  );
}
