import type { ReactNode } from 'react';
import { Construction } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { PageContainer, PageHeader } from './page-header';

/** A titled page whose feature is being built: the title, a short "coming soon" line and its icon. */
export function ComingSoonPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <PageContainer>
      <PageHeader title={title} description={description} />
      <Card className="mt-8">
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <Construction className="size-10 text-primary" aria-hidden="true" />
          <p className="text-lg font-medium">Coming soon</p>
          <p className="max-w-md text-muted-foreground">
            This part of Snap Cracks is being built and will be available shortly.
          </p>
          {children}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
