import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ArrowLeft, FileText, Shield, Users, type LucideIcon } from 'lucide-react';
import { LEGAL_DOCUMENTS, type LegalDocument } from '@/components/legal/legal-documents';
import { LEGAL_LAST_UPDATED } from '@/components/legal/legal-prose';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { scrollToElementId } from '@/lib/browser';

const SECTION_ICONS: Record<LegalDocument['id'], LucideIcon> = {
  terms: FileText,
  privacy: Shield,
  community: Users,
};

/** Scrolls to a section (80 px below the top, clear of the navbar) and moves keyboard focus there. */
function goToSection(id: string): void {
  if (scrollToElementId(id)) document.getElementById(id)?.focus({ preventScroll: true });
}

export function LegalPage() {
  const { hash } = useLocation();
  useDocumentTitle('Legal');

  // Deep links such as /legal#privacy (footer, terms checkbox) land on their section.
  useEffect(() => {
    if (hash) goToSection(decodeURIComponent(hash.slice(1)));
  }, [hash]);

  return (
    <PageContainer className="max-w-4xl">
      <Button asChild variant="ghost" className="mb-4 -ml-3">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
      <PageHeader
        title="Legal Information"
        description="The rules and promises that keep Snap Cracks fair, safe and fun for everyone."
      />

      <nav aria-label="Legal sections" className="mt-6 flex flex-wrap gap-2">
        {LEGAL_DOCUMENTS.map(({ id, title }) => {
          const Icon = SECTION_ICONS[id];
          return (
            <Button key={id} variant="outline" onClick={() => goToSection(id)}>
              <Icon aria-hidden="true" />
              {title}
            </Button>
          );
        })}
      </nav>

      <div className="mt-8 flex flex-col gap-8">
        {LEGAL_DOCUMENTS.map(({ id, title, Content }) => {
          const Icon = SECTION_ICONS[id];
          return (
            // No scroll margin of its own: the page's 80 px scroll-padding-top (index.css) already places a
            // deep link's section, and a margin would add to it (160 px) and fight the scroll goToSection makes.
            <Card
              key={id}
              id={id}
              tabIndex={-1}
              aria-labelledby={`${id}-title`}
              role="region"
              className="outline-none"
            >
              <CardHeader>
                <CardTitle id={`${id}-title`} className="flex items-center gap-2 text-2xl">
                  <Icon className="size-6 text-primary" aria-hidden="true" />
                  {title}
                </CardTitle>
                <CardDescription>Last updated: {LEGAL_LAST_UPDATED}</CardDescription>
              </CardHeader>
              <CardContent>
                <Content />
              </CardContent>
            </Card>
          );
        })}
      </div>
      <p className="mt-8 text-sm text-muted-foreground">
        Photos in the HEIC format are previewed in your browser with libheif and libde265, free software under the GNU
        Lesser General Public License 3.0:{' '}
        <a href="/third-party-notices.txt" className="font-medium text-primary underline underline-offset-4">
          notices, licence and sources
        </a>
        .
      </p>
    </PageContainer>
  );
}
