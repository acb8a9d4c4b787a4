import { DESK } from '@snapcracks/http-contract';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * A key as the desk shows it. Inside a button it is decoration (`aria-hidden`): the button's name stays its action and
 * `aria-keyshortcuts` tells assistive technology the key. `inverse` on a coloured button.
 */
export function Key({ className, inverse = false, ...props }: ComponentProps<'kbd'> & { inverse?: boolean }) {
  return (
    <kbd
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded border px-1 font-mono text-xs leading-4 font-normal',
        inverse ? 'border-current/40 bg-transparent text-current' : 'bg-muted text-foreground',
        className,
      )}
      {...props}
    />
  );
}

/** The desk's keys, as its help lists them. */
export const DESK_SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['A'], action: 'Approve the photo' },
  { keys: ['R'], action: 'Reject it: asks for the reason' },
  { keys: ['1–9'], action: 'Pick a saved reason (while rejecting)' },
  { keys: ['Enter'], action: 'Reject with the reason (Ctrl+Enter while writing it)' },
  { keys: ['Esc'], action: 'Cancel the rejection' },
  { keys: ['S'], action: 'Skip: leave it for another admin' },
  { keys: ['U', 'Ctrl+Z'], action: `Undo the last decision, within ${DESK.undoSeconds} seconds` },
  { keys: ['?'], action: 'Show these shortcuts' },
];
