import { MyUploadsSection } from '@/components/dashboard/my-uploads-section';
import { PageContainer, PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function DashboardPage() {
  useDocumentTitle('My Dashboard');
  return (
    <PageContainer>
      <PageHeader title="My Dashboard" description="Track your snaps and manage the photos you shared." />
      <div className="mt-8 flex flex-col gap-12">
        {/*
          Still to come (SPEC §2 Dashboard), each as its own section above My Uploads, fed by
          GET /api/user/stats: stat cards, rankings, performance, status overview, and the
          top-rated and lowest-rated photo cards.
        */}
        <MyUploadsSection />
      </div>
    </PageContainer>
  );
}
