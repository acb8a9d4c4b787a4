import { RESUBMIT } from '@snapcracks/http-contract';
import { useId, useState, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { getServerMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { UserPhoto } from '@/lib/types';
import { useResubmitPhotoMutation } from '@/queries/user-photos';
import { photoLabel } from './photo-label';
import { LabelWithCount } from '@/components/label-with-count';
import { DialogFormFooter } from '@/components/dialog-form-footer';

/**
 * "Fix and resubmit" on a rejected photo: the owner, having fixed its description or bars with Edit, sends it back to
 * review once with a note to the admins. A second rejection is final.
 */
export function ResubmitPhotoButton({ photo }: { photo: UserPhoto }) {
  const [open, setOpen] = useState(false);
  const resubmit = useResubmitPhotoMutation(
    (error) => ({ title: 'Resubmission failed', description: getServerMessage(error, 'Failed to resubmit the photo. Please try again.') }),
    () => {
      setOpen(false);
      toast({ title: 'Photo Resubmitted', description: 'An admin will review your photo again.' });
    },
  );
  const label = photoLabel(photo);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!resubmit.isPending) setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" aria-label={`Fix and resubmit ${label}`}>
          <Send aria-hidden="true" />
          Resubmit
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Resubmit Photo</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            Fix “{label}” first with Edit (its description or privacy bars), then tell the admins what you changed. You can
            resubmit it once{photo.resubmitUntil ? `, until ${formatDate(photo.resubmitUntil)}` : ''}; a second rejection is final.
          </DialogDescription>
        </DialogHeader>
        {open && (
          <ResubmitForm
            reason={photo.rejectionReason}
            isPending={resubmit.isPending}
            onSubmit={(note) => resubmit.mutate({ id: photo.id, note })}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ResubmitForm({ reason, isPending, onSubmit }: { reason: string | null; isPending: boolean; onSubmit: (note: string) => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed.length > RESUBMIT.noteMaxLength) return setError(RESUBMIT.noteTooLong);
    setError(null);
    onSubmit(trimmed);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      {reason && (
        <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400/40 dark:bg-red-400/10 dark:text-red-200">
          <p className="font-semibold">Rejection reason</p>
          <p className="mt-1 break-words">{reason}</p>
        </div>
      )}
      <div className="flex flex-col gap-2">
        <LabelWithCount htmlFor={`${id}-note`} value={note} maxLength={RESUBMIT.noteMaxLength}>
          What did you change? (optional)
        </LabelWithCount>
        <Textarea
          id={`${id}-note`}
          rows={3}
          autoFocus
          placeholder="e.g. I added a privacy bar over the face."
          value={note}
          disabled={isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setNote(event.target.value);
            if (error) setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <DialogFormFooter pending={isPending} icon={Send} action="Resubmit Photo" busy="Resubmitting..." />
    </form>
  );
}
