import { ComingSoonPage } from '@/components/coming-soon';

export function DashboardPage() {
  return (
    <ComingSoonPage
      title="My Dashboard"
      description="Your uploads, ratings, rankings and performance at a glance."
    />
  );
}
