import { MyReportsSection } from '@/components/dashboard/my-reports-section';
import { MyUploadsSection } from '@/components/dashboard/my-uploads-section';
import { RatingCharts } from '@/components/dashboard/rating-charts';
import { UserStatsSections } from '@/components/dashboard/user-stats-sections';
import { PageContainer, PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function DashboardPage() {
  useDocumentTitle('My Dashboard');
  return (
    <PageContainer>
      <PageHeader title="My Dashboard" description="Track your snaps and manage the photos you shared." />
      <div className="mt-8 flex flex-col gap-12">
        <div className="flex flex-col gap-6">
          <UserStatsSections />
          <RatingCharts />
        </div>
        <MyUploadsSection />
        <MyReportsSection />
      </div>
    </PageContainer>
  );
}
