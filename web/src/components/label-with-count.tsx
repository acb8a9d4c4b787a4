import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label';

/**
 * A text field's label with how much of its limit is used ("12/500", of the trimmed text, as the server counts it).
 * The count is for the eye; the field's own error says it when the limit is passed.
 */
export function LabelWithCount({ htmlFor, children, value, maxLength }: { htmlFor: string; children: ReactNode; value: string; maxLength: number }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <Label htmlFor={htmlFor}>{children}</Label>
      <span className="text-xs text-muted-foreground tabular-nums" aria-hidden="true">
        {value.trim().length}/{maxLength}
      </span>
    </div>
  );
}
