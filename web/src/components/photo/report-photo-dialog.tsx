import { REPORTS } from '@snapcracks/http-contract';
import { useId, useState, type FormEvent } from 'react';
import { Flag } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { ReportCategory } from '@/lib/types';
import { useReportPhotoMutation } from '@/queries/reports';
import { LabelWithCount } from '@/components/label-with-count';
import { DialogFormFooter } from '@/components/dialog-form-footer';

/** The categories in the order members read them, with their labels (the contract's). */
export const REPORT_CATEGORIES = REPORTS.categories.map((id) => ({ id, label: REPORTS.labels[id] }));

/**
 * "Report" under a photo someone else uploaded: a dialog asking what is wrong (a category) and, optionally, why. The
 * admins review it; a photo reported by enough members leaves the gallery until they decide.
 */
export function ReportPhotoButton({ photoId }: { photoId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" className="self-start text-muted-foreground" onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" />
        Report
      </Button>
      <ReportPhotoDialog photoId={photoId} open={open} onOpenChange={setOpen} />
    </>
  );
}

export function ReportPhotoDialog({ photoId, open, onOpenChange }: { photoId: number; open: boolean; onOpenChange: (open: boolean) => void }) {
  const report = useReportPhotoMutation(
    (error) => ({ title: 'Report not sent', description: getServerMessage(error, 'Failed to send the report. Please try again.') }),
    ({ photoHeld }) => {
      onOpenChange(false);
      toast({
        title: 'Report Sent',
        description: photoHeld
          ? 'Thank you. The photo is hidden from the gallery until an admin decides.'
          : 'Thank you. An admin will look at this photo. You can follow your report on your dashboard.',
      });
    },
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!report.isPending) onOpenChange(next);
      }}
    >
      {/* Keys pressed here are this form's: the photo viewer behind it votes on digits and moves on arrows. */}
      <DialogContent className="max-w-lg" onKeyDown={(event) => event.stopPropagation()}>
        <DialogHeader>
          <DialogTitle>Report Photo</DialogTitle>
          <DialogDescription>
            Tell the admins what is wrong with this photo. They review every report; the uploader never sees who reported it.
          </DialogDescription>
        </DialogHeader>
        {open && (
          <ReportForm
            isPending={report.isPending}
            onSubmit={(input) => report.mutate({ photoId, ...input })}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ReportForm({ isPending, onSubmit }: { isPending: boolean; onSubmit: (input: { category: ReportCategory; note?: string }) => void }) {
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!category) return setError(REPORTS.categoryInvalid);
    const trimmed = note.trim();
    if (trimmed.length > REPORTS.noteMaxLength) return setError(REPORTS.noteTooLong);
    setError(null);
    onSubmit({ category, ...(trimmed ? { note: trimmed } : {}) });
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">What is wrong?</legend>
        {REPORT_CATEGORIES.map(({ id: value, label }) => (
          <label
            key={value}
            className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
          >
            <input
              type="radio"
              name={`${id}-category`}
              value={value}
              checked={category === value}
              disabled={isPending}
              onChange={() => {
                setCategory(value);
                if (error) setError(null);
              }}
              className="size-4 accent-primary"
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2">
        <LabelWithCount htmlFor={`${id}-note`} value={note} maxLength={REPORTS.noteMaxLength}>
          Details (optional)
        </LabelWithCount>
        <Textarea
          id={`${id}-note`}
          rows={3}
          placeholder="e.g. A face is visible at the left edge."
          value={note}
          disabled={isPending}
          onChange={(event) => {
            setNote(event.target.value);
            if (error) setError(null);
          }}
        />
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
          {error}
        </p>
      )}
      <DialogFormFooter pending={isPending} icon={Flag} action="Send Report" busy="Sending..." />
    </form>
  );
}
