import { REPORTS } from '@snapcracks/http-contract';
import { Flag } from 'lucide-react';
import type { ReportedPhoto } from '@/lib/types';

/** A photo's open reports by category, most first, each with its notes (newest first). Reporters are never named. */
export function ReportGroups({ groups }: { groups: ReportedPhoto['groups'] }) {
  return (
    <ul aria-label="Reports by category" className="flex flex-col gap-2">
      {groups.map((group) => (
        <li key={group.category} className="rounded-md border bg-muted/40 p-3 text-sm">
          <p className="flex items-center gap-2 font-medium">
            <Flag className="size-4 shrink-0 text-orange-700 dark:text-orange-300" aria-hidden="true" />
            {REPORTS.labels[group.category]}
            <span className="text-muted-foreground tabular-nums">× {group.count}</span>
          </p>
          {group.notes.length > 0 && (
            <ul className="mt-2 flex flex-col gap-1 text-muted-foreground">
              {group.notes.map((note, index) => (
                <li key={index} className="break-words">
                  “{note}”
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
