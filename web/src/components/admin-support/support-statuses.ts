import { CheckCircle2, Clock, Inbox, Mail, type LucideIcon } from 'lucide-react';
import type { ContactFormCounts, ContactFormFilter, ContactFormStatus } from '@/lib/types';

/** SPEC §9: the support screen opens on the new messages. */
export const DEFAULT_SUPPORT_FILTER: ContactFormFilter = 'new';

export interface StatusStyle {
  /** As the badge and the dropdown show it. */
  label: string;
  /** As the empty text says it: "No {word} messages." */
  word: string;
  icon: LucideIcon;
  /** Opaque colour pairs whose text passes WCAG AA in both themes; each status also has its own icon. */
  className: string;
}

export const STATUS_STYLES: Record<ContactFormStatus, StatusStyle> = {
  new: {
    label: 'New',
    word: 'new',
    icon: Mail,
    className: 'border-sky-300 bg-sky-100 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-200',
  },
  in_progress: {
    label: 'In Progress',
    word: 'in progress',
    icon: Clock,
    className:
      'border-amber-300 bg-amber-100 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200',
  },
  resolved: {
    label: 'Resolved',
    word: 'resolved',
    icon: CheckCircle2,
    className:
      'border-emerald-300 bg-emerald-100 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200',
  },
};

export interface SupportFilterOption {
  id: ContactFormFilter;
  /** The card's title (SPEC §2 User Support). */
  label: string;
  icon: LucideIcon;
  count: (counts: ContactFormCounts) => number;
}

export const SUPPORT_FILTERS: SupportFilterOption[] = [
  { id: 'new', label: 'New Messages', icon: Mail, count: (counts) => counts.new },
  { id: 'in_progress', label: 'In Progress', icon: Clock, count: (counts) => counts.in_progress },
  { id: 'resolved', label: 'Resolved', icon: CheckCircle2, count: (counts) => counts.resolved },
  { id: 'all', label: 'Total Messages', icon: Inbox, count: (counts) => counts.total },
];

/** SPEC §2: the list's text when the filter has nothing. */
export function emptySupportText(filter: ContactFormFilter): string {
  return filter === 'all' ? 'No contact forms submitted yet.' : `No ${STATUS_STYLES[filter].word} messages.`;
}
