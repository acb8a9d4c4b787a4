import type { ReactNode } from 'react';

/** All three legal documents were last revised on this date (SPEC "Legal"). */
export const LEGAL_LAST_UPDATED = 'July 27, 2025';

/** Small typographic building blocks shared by the legal documents. */
export function LegalHeading({ children }: { children: ReactNode }) {
  return <h3 className="mt-6 mb-2 text-lg font-semibold first:mt-0">{children}</h3>;
}

export function LegalParagraph({ children }: { children: ReactNode }) {
  return <p className="mb-3 leading-relaxed text-muted-foreground">{children}</p>;
}

export function LegalList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="mb-3 list-disc space-y-1.5 pl-6 leading-relaxed text-muted-foreground marker:text-primary">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
