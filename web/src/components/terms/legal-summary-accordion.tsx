import { Link } from 'react-router-dom';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { LEGAL_DOCUMENTS } from '@/components/legal/legal-documents';

/** Expandable key points of the three legal documents, each linking to its full text. */
export function LegalSummaryAccordion() {
  return (
    <Accordion type="multiple" className="rounded-lg border px-4">
      {LEGAL_DOCUMENTS.map(({ id, title, summary }) => (
        <AccordionItem key={id} value={id}>
          <AccordionTrigger heading="h2">{title}</AccordionTrigger>
          <AccordionContent>
            <ul className="list-disc space-y-1.5 pl-5 text-muted-foreground marker:text-primary">
              {summary.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <Link
              to={`/legal#${id}`}
              className="mt-3 inline-block rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            >
              Read the full {title}
            </Link>
          </AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
