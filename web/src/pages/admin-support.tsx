import { AdminOnly } from '@/components/auth/admin-only';
import { ComingSoonPage } from '@/components/coming-soon';

export function AdminSupportPage() {
  return (
    <AdminOnly>
      <ComingSoonPage title="User Support" description="Read and answer the messages sent through the contact form." />
    </AdminOnly>
  );
}
