import { RATERS } from '@snapcracks/http-contract';
import { useId, useState, type ComponentProps, type FormEvent } from 'react';
import { Ban, Undo2 } from 'lucide-react';
import { LabelWithCount } from '@/components/label-with-count';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { formatCountOf } from '@/lib/format';
import type { VoteChangeKind } from '@/queries/raters';
import { DialogFormFooter } from '@/components/dialog-form-footer';

/** Which votes a change is for: a number of chosen ones, or all of the rater's. */
export type VoteChangeScope = number | 'all';

export interface VoteChangeRequest {
  kind: VoteChangeKind;
  scope: VoteChangeScope;
}

function wording({ kind, scope }: VoteChangeRequest, name: string) {
  const votes = scope === 'all' ? 'all votes' : formatCountOf(scope, 'vote');
  if (kind === 'void') {
    return {
      title: `Void ${votes}`,
      description: `${scope === 'all' ? `Every vote of ${name}` : `The chosen votes of ${name}`} will be set aside: they stay theirs but count in no total, order or figure.`,
      action: 'Void votes',
      busy: 'Voiding...',
    };
  }
  return {
    title: `Restore ${votes}`,
    description: `${scope === 'all' ? `Every voided vote of ${name}` : `The chosen votes of ${name}`} will count again, unless the account is disabled.`,
    action: 'Restore votes',
    busy: 'Restoring...',
  };
}

/**
 * Asks for the reason of a void or restoration (required, kept in the rater's history) before it is sent. Stays open
 * while `isPending`; `serverError` is the server's answer to the last try (a 400's message, say).
 */
export function VoteChangeDialog({
  request,
  raterName,
  onOpenChange,
  isPending,
  serverError,
  onConfirm,
  onCloseAutoFocus,
}: {
  /** The change asked for; null when the dialog is closed. */
  request: VoteChangeRequest | null;
  raterName: string;
  onOpenChange: (open: boolean) => void;
  isPending: boolean;
  serverError: string | null;
  onConfirm: (reason: string) => void;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>['onCloseAutoFocus'];
}) {
  // The last request stays while the dialog closes, so its words do not change during the closing animation.
  const [shown, setShown] = useState(request);
  if (request && request !== shown) setShown(request);
  const words = shown ? wording(shown, raterName) : null;
  return (
    <Dialog
      open={request !== null}
      onOpenChange={(next) => {
        if (!isPending) onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-md" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{words?.title}</DialogTitle>
          <DialogDescription className="wrap-anywhere">{words?.description}</DialogDescription>
        </DialogHeader>
        {request && words && (
          <ReasonForm destructive={request.kind === 'void'} action={words.action} busy={words.busy} isPending={isPending} serverError={serverError} onConfirm={onConfirm} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ReasonForm({
  destructive,
  action,
  busy,
  isPending,
  serverError,
  onConfirm,
}: {
  destructive: boolean;
  action: string;
  busy: string;
  isPending: boolean;
  serverError: string | null;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const shownError = error ?? (isPending ? null : serverError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) return setError(RATERS.reasonRequired);
    if (trimmed.length > RATERS.reasonMaxLength) return setError(RATERS.reasonTooLong);
    setError(null);
    onConfirm(trimmed);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <LabelWithCount htmlFor={`${id}-reason`} value={reason} maxLength={RATERS.reasonMaxLength}>
          Reason
        </LabelWithCount>
        <Textarea
          id={`${id}-reason`}
          rows={3}
          autoFocus
          required
          placeholder="e.g. Rated every photo 1 within seconds."
          value={reason}
          disabled={isPending}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? `${id}-error` : `${id}-hint`}
          onChange={(event) => {
            setReason(event.target.value);
            if (error) setError(null);
          }}
        />
        {shownError ? (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
            {shownError}
          </p>
        ) : (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            Kept in this member’s history, with your name.
          </p>
        )}
      </div>
      <DialogFormFooter pending={isPending} icon={destructive ? Ban : Undo2} destructive={destructive} action={action} busy={busy} />
    </form>
  );
}
