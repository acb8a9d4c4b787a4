import { REJECTION_REASON, REPORTS, REVERSAL } from '@snapcracks/http-contract';
import { useId, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { CheckCircle2, XCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { useReasonTemplatesQuery } from '@/queries/desk';
import { LabelWithCount } from '@/components/label-with-count';
import { DialogFormFooter } from '@/components/dialog-form-footer';

/** SPEC §5: a rejection needs a non-blank reason. */
export const REASON_REQUIRED = REJECTION_REASON.required;
export const REASON_MAX_LENGTH = REJECTION_REASON.maxLength;
export const REASON_TOO_LONG = REJECTION_REASON.tooLong;

interface Wording {
  title: string;
  description: (photoLabel: string) => string;
  label: string;
  action: string;
  busy: string;
  required: string;
  /** A red confirm button: the photo leaves the gallery, or never enters it. */
  destructive: boolean;
}

const tellUploader = (lead: string) => (photoLabel: string) => `Tell the uploader why “${photoLabel}” ${lead}. They will see this reason.`;

/**
 * A rejection of a pending photo, the removal of a reported one, and the two decisions taken back: an approved photo
 * removed (takeDown) and a rejected one approved after all (reinstate). Each asks for a reason; the reason templates
 * are offered as quick picks for all but reinstate.
 */
const WORDING = {
  reject: { title: 'Reject Photo', description: tellUploader('cannot be published'), label: 'Reason for rejection', action: 'Reject Photo', busy: 'Rejecting...', required: REJECTION_REASON.required, destructive: true },
  remove: { title: 'Remove Photo', description: tellUploader('is taken down'), label: 'Reason for removal', action: 'Remove Photo', busy: 'Removing...', required: REPORTS.removalReasonRequired, destructive: true },
  takeDown: { title: 'Remove Photo', description: tellUploader('is taken down'), label: 'Reason for removal', action: 'Remove Photo', busy: 'Removing...', required: REVERSAL.reasonRequired, destructive: true },
  reinstate: {
    title: 'Approve Photo Again',
    description: (photoLabel: string) => `Say why “${photoLabel}” goes into the gallery after all. The reason is kept in its moderation history.`,
    label: 'Reason for approving again',
    action: 'Approve Photo',
    busy: 'Approving...',
    required: REVERSAL.reasonRequired,
    destructive: false,
  },
} as const satisfies Record<string, Wording>;

export type ReasonDialogMode = keyof typeof WORDING;

/**
 * Asks for the reason of a rejection (or a removal, or a decision taken back); `onReject` gets it trimmed. Stays open
 * while `isPending`. Opened without a trigger, so `onCloseAutoFocus` says where focus goes when it closes.
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
  mode?: ReasonDialogMode;
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
          <DialogDescription className="wrap-anywhere">{wording.description(photoLabel)}</DialogDescription>
        </DialogHeader>
        {open && <RejectForm isPending={isPending} onReject={onReject} wording={wording} templates={mode !== 'reinstate'} />}
      </DialogContent>
    </Dialog>
  );
}

function RejectForm({ isPending, onReject, wording, templates }: { isPending: boolean; onReject: (reason: string) => void; wording: Wording; templates: boolean }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  // The saved reasons; none shown while they load, or when they cannot be loaded (the reason can still be written).
  const saved = useReasonTemplatesQuery({ enabled: templates }).data?.templates ?? [];

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
      {templates && saved.length > 0 && (
        <div role="group" aria-labelledby={`${id}-templates`} className="flex flex-col gap-2">
          <p id={`${id}-templates`} className="text-sm font-medium">
            Saved reasons
          </p>
          <div className="flex flex-wrap gap-2">
            {saved.map((template) => (
              <Button
                key={template.id}
                variant="outline"
                size="sm"
                className="max-w-full"
                title={template.text}
                disabled={isPending}
                onClick={() => {
                  setReason(template.text);
                  setError(null);
                  reasonRef.current?.focus();
                }}
              >
                <span className="truncate">{template.label}</span>
              </Button>
            ))}
          </div>
        </div>
      )}
      <div className="flex flex-col gap-2">
        <LabelWithCount htmlFor={`${id}-reason`} value={reason} maxLength={REASON_MAX_LENGTH}>
          {wording.label}
        </LabelWithCount>
        <Textarea
          ref={reasonRef}
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
      <DialogFormFooter pending={isPending} icon={wording.destructive ? XCircle : CheckCircle2} destructive={wording.destructive} action={wording.action} busy={wording.busy} />
    </form>
  );
}
