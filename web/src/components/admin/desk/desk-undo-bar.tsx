import { useEffect, useState } from 'react';
import { Undo2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { decisionText, type DeskDecision } from './use-review-desk';

/** How often the countdown is redrawn: often enough that it never shows a second too many for long. */
const TICK_MS = 250;

/**
 * The desk's Undo: "Approved “Crack” — Undo (U) · 9 s", counting down to the moment the decision is sent. It floats at
 * the foot of the window (left of the toasts, which show bottom right from `sm` up), so it never pushes the next item
 * down as it comes and goes. Its countdown is not announced: the desk's live region says what was decided, and that U
 * undoes it.
 */
export function DeskUndoBar({ decision, until, onUndo }: { decision: DeskDecision; until: number; onUndo: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4 sm:justify-start sm:px-6">
      <div
        data-testid="desk-undo-bar"
        className="pointer-events-auto flex max-w-full flex-wrap items-center gap-x-2 gap-y-1 rounded-xl border bg-popover px-4 py-2 text-sm text-popover-foreground shadow-lg"
      >
        {/* The spaces read well when the text is copied or read out; the gap spaces it on screen. */}
        <span className="min-w-0 break-words">{decisionText(decision)}</span>{' '}
        <span aria-hidden="true">—</span>{' '}
        <Button variant="outline" size="sm" aria-keyshortcuts="U Control+Z Meta+Z" onClick={onUndo}>
          <Undo2 aria-hidden="true" />
          Undo (U)
        </Button>{' '}
        <span aria-hidden="true">·</span> <span className="text-muted-foreground tabular-nums">{seconds} s</span>
      </div>
    </div>
  );
}
