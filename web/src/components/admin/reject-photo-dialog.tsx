import { REJECTION_REASON, REPORTS } from '@snapcracks/http-contract';
import { useId, useState, type ComponentProps, type FormEvent } from 'react';
import { Loader2, XCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

/** SPEC §5: a rejection needs a non-blank reason. */
export const REASON_REQUIRED = REJECTION_REASON.required;
export const REASON_MAX_LENGTH = REJECTION_REASON.maxLength;
export const REASON_TOO_LONG = REJECTION_REASON.tooLong;

/** A rejection of a pending photo, or the removal of a reported one: both tell the uploader why. */
const WORDING = {
  reject: { title: 'Reject Photo', lead: 'cannot be published', label: 'Reason for rejection', action: 'Reject Photo', busy: 'Rejecting...', required: REJECTION_REASON.required },
  remove: { title: 'Remove Photo', lead: 'is taken down', label: 'Reason for removal', action: 'Remove Photo', busy: 'Removing...', required: REPORTS.removalReasonRequired },
} as const;

/**
 * Asks for the reason of a rejection (or a removal); `onReject` gets it trimmed. Stays open while `isPending`. Opened
 * without a trigger, so `onCloseAutoFocus` says where focus goes when it closes.
 */
export function RejectPhotoDialog({
  open,
  onOpenChange,
  photoLabel,
  isPending = false,
  onReject,
  onCloseAutoFocus,
  mode = 'reject',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  photoLabel: string;
  isPending?: boolean;
  onReject: (reason: string) => void;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>['onCloseAutoFocus'];
  mode?: keyof typeof WORDING;
}) {
  const wording = WORDING[mode];
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!isPending) onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{wording.title}</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            Tell the uploader why “{photoLabel}” {wording.lead}. They will see this reason.
          </DialogDescription>
        </DialogHeader>
        {open && <RejectForm isPending={isPending} onReject={onReject} wording={wording} />}
      </DialogContent>
    </Dialog>
  );
}

function RejectForm({ isPending, onReject, wording }: { isPending: boolean; onReject: (reason: string) => void; wording: (typeof WORDING)[keyof typeof WORDING] }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) return setError(wording.required);
    if (trimmed.length > REASON_MAX_LENGTH) return setError(REASON_TOO_LONG);
    setError(null);
    onReject(trimmed);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={`${id}-reason`}>{wording.label}</Label>
          <span className="text-xs text-muted-foreground tabular-nums" aria-hidden="true">
            {reason.trim().length}/{REASON_MAX_LENGTH}
          </span>
        </div>
        <Textarea
          id={`${id}-reason`}
          rows={4}
          autoFocus
          placeholder="e.g. The crack is not visible in this photo."
          value={reason}
          disabled={isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            if (error) setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="destructive" disabled={isPending}>
          {isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <XCircle aria-hidden="true" />}
          {isPending ? wording.busy : wording.action}
        </Button>
      </DialogFooter>
    </form>
  );
}
