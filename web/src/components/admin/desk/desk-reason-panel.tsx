import { REJECTION_REASON } from '@snapcracks/http-contract';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import type { ReasonTemplate } from '@/lib/types';
import { isPlainKey, isTextEntry } from '../keyboard';
import { Key } from './desk-keys';
import { LabelWithCount } from '@/components/label-with-count';

/** The saved reasons a number key picks: 1 to 9. */
export const NUMBERED_TEMPLATES = 9;

/**
 * The desk's rejection reason, inline under the photo: the saved reasons (1–9 pick one, filling the text, which can
 * still be changed), the reason itself, Enter to reject (Control+Enter or Command+Enter while writing) and Escape to
 * cancel. With saved reasons the panel itself takes focus, so the number keys work at once; without, the text field.
 */
export function DeskReasonPanel({
  templates,
  onConfirm,
  onCancel,
}: {
  templates: ReasonTemplate[];
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const focused = useRef(false);
  const id = useId();
  const hasTemplates = templates.length > 0;

  useEffect(() => {
    if (focused.current) return;
    focused.current = true;
    (hasTemplates ? formRef.current : textRef.current)?.focus();
  }, [hasTemplates]);

  const pick = (template: ReasonTemplate) => {
    setReason(template.text);
    setError(null);
    // Back on the panel, so that Enter rejects and another number picks again.
    formRef.current?.focus();
  };

  const confirm = () => {
    const trimmed = reason.trim();
    if (!trimmed) return setError(REJECTION_REASON.required);
    if (trimmed.length > REJECTION_REASON.maxLength) return setError(REJECTION_REASON.tooLong);
    setError(null);
    onConfirm(trimmed);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.defaultPrevented) return;
    const writing = isTextEntry(event.target);
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      // On the panel itself, Enter rejects; in the text, Enter starts a new line and Control+Enter rejects. On a
      // button, Enter presses it.
      const confirms = writing ? event.ctrlKey || event.metaKey : event.target === event.currentTarget;
      if (!confirms) return;
      event.preventDefault();
      confirm();
    } else if (!writing && !event.repeat && isPlainKey(event) && /^[1-9]$/.test(event.key)) {
      const template = templates[Number(event.key) - 1];
      if (!template) return;
      event.preventDefault();
      pick(template);
    }
  };

  return (
    <form
      ref={formRef}
      noValidate
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-hint`}
      aria-keyshortcuts={hasTemplates ? '1 2 3 4 5 6 7 8 9 Enter Escape' : 'Enter Escape'}
      onSubmit={submit}
      onKeyDown={onKeyDown}
      className="flex flex-col gap-3 rounded-xl border border-red-300 bg-card p-4 text-card-foreground shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background dark:border-red-400/40"
    >
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-title`} className="font-semibold">
          Reject this photo
        </h3>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hasTemplates ? 'Press 1 to 9 for a saved reason, or write one. ' : 'Write the reason the uploader will see. '}
          <Key>Enter</Key> rejects (<Key>Ctrl</Key>+<Key>Enter</Key> while writing), <Key>Esc</Key> cancels.
        </p>
      </div>

      {hasTemplates && (
        <ol aria-label="Saved reasons" className="grid gap-2 sm:grid-cols-2">
          {templates.map((template, index) => {
            const key = index < NUMBERED_TEMPLATES ? String(index + 1) : undefined;
            return (
              <li key={template.id} className="min-w-0">
                <Button
                  variant="outline"
                  className="h-auto min-h-11 w-full justify-start py-2 text-left whitespace-normal sm:min-h-10"
                  aria-keyshortcuts={key}
                  title={template.text}
                  onClick={() => pick(template)}
                >
                  {key && <Key aria-hidden="true">{key}</Key>}
                  <span className="min-w-0 break-words">{template.label}</span>
                </Button>
              </li>
            );
          })}
        </ol>
      )}

      <div className="flex flex-col gap-2">
        <LabelWithCount htmlFor={`${id}-reason`} value={reason} maxLength={REJECTION_REASON.maxLength}>
          Reason for rejection
        </LabelWithCount>
        <Textarea
          ref={textRef}
          id={`${id}-reason`}
          rows={3}
          placeholder="e.g. The crack is not visible in this photo."
          value={reason}
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

      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="destructive" aria-keyshortcuts="Enter Control+Enter Meta+Enter">
          <X aria-hidden="true" />
          Reject
          <Key inverse aria-hidden="true">
            Enter
          </Key>
        </Button>
        <Button variant="outline" aria-keyshortcuts="Escape" onClick={onCancel}>
          Cancel
          <Key aria-hidden="true">Esc</Key>
        </Button>
      </div>
    </form>
  );
}
