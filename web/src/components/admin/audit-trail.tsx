import { History } from 'lucide-react';
import { formatDateTime } from '@/lib/format';
import type { AdminAuditEntry } from '@/lib/types';

const ACTION_WORDS: Record<string, string> = { approve: 'Approved', reject: 'Rejected', delete: 'Deleted' };

/** The moderation log of one photo, newest first: who decided what, when, and why. */
export function AuditTrail({ entries, currentUserId }: { entries: AdminAuditEntry[]; currentUserId: string | undefined }) {
  if (entries.length === 0) return null;
  return (
    <details className="group rounded-md border bg-muted/40 text-sm">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 px-3 py-2 font-medium sm:min-h-0 text-muted-foreground select-none hover:text-foreground">
        <History className="size-4" aria-hidden="true" />
        Moderation history ({entries.length})
      </summary>
      <ol className="flex flex-col gap-2 border-t px-3 py-2">
        {entries.map((entry) => {
          const when = formatDateTime(entry.createdAt);
          return (
            <li key={entry.id} className="break-words">
              <span className="font-medium">{ACTION_WORDS[entry.action] ?? entry.action}</span>{' '}
              <span className="text-muted-foreground">
                by {entry.actorId === currentUserId ? 'you' : 'another admin'}
                {when && (
                  <>
                    {' · '}
                    <time dateTime={entry.createdAt ?? undefined}>{when}</time>
                  </>
                )}
              </span>
              {entry.reason && <p className="mt-0.5 text-muted-foreground">“{entry.reason}”</p>}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
