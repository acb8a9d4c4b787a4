import type { ReactElement, ReactNode } from 'react';
import { cloneElement } from 'react';
import { Label } from '@/components/ui/label';

/**
 * A labelled form control with its error message. Wires the id, aria-invalid and aria-describedby
 * onto the control so screen readers announce the message with the field. `description` is a prompt shown
 * under the label (what to write); `hint` sits under the control on the right (a character count, say).
 */
export function FormField({
  id,
  label,
  error,
  description,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  description?: ReactNode;
  hint?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
}) {
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const hintId = `${id}-hint`;
  const describedBy =
    [error ? errorId : null, description ? descriptionId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {description && (
        <p id={descriptionId} className="-mt-1 text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      <div className="flex justify-between gap-4">
        {error ? (
          <p id={errorId} className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : (
          <span />
        )}
        {hint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
