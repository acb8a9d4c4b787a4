import { Mail } from 'lucide-react';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import type { ContactFormItem, ContactFormStatus } from '@/lib/types';
import { ContactFormStatusBadge } from './contact-form-status-badge';
import { ContactFormStatusSelect } from './contact-form-status-select';

/** One message (SPEC §2 User Support): who sent it, when, about what, its status and what it says. */
export function ContactFormCard({
  form,
  status,
  isUpdating,
  onStatusChange,
}: {
  form: ContactFormItem;
  /** The status to show: the form's own, or the one being set while the change is in flight. */
  status: ContactFormStatus;
  isUpdating: boolean;
  onStatusChange: (status: ContactFormStatus) => void;
}) {
  const titleId = `contact-form-${form.id}-subject`;
  const relative = formatRelativeTime(form.createdAt);
  return (
    <li aria-labelledby={titleId} className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm">
      <article className="flex flex-col gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1">
            <h3 id={titleId} className="text-lg leading-tight font-semibold break-words">
              {form.subject}
            </h3>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
              <span className="font-medium text-foreground">{form.name}</span>
              <a
                href={`mailto:${form.email}`}
                className="inline-flex items-center gap-1 break-all text-primary underline-offset-4 hover:underline"
              >
                <Mail className="size-3.5 shrink-0" aria-hidden="true" />
                {form.email}
              </a>
              {relative && (
                <>
                  <span aria-hidden="true">·</span>
                  <time dateTime={form.createdAt ?? undefined} title={formatDateTime(form.createdAt) ?? undefined}>
                    {relative}
                  </time>
                </>
              )}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <ContactFormStatusBadge status={status} />
            <ContactFormStatusSelect
              value={status}
              onChange={onStatusChange}
              disabled={isUpdating}
              label={`Status of the message from ${form.name}`}
            />
          </div>
        </div>
        <p className="rounded-lg bg-muted/50 p-4 text-sm leading-relaxed whitespace-pre-wrap break-words">
          {form.message}
        </p>
      </article>
    </li>
  );
}
