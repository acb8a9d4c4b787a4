import { ComingSoonPage } from '@/components/coming-soon';

export function ProfilePage() {
  return <ComingSoonPage title="My Profile" description="Your display name, avatar and account status." />;
}
