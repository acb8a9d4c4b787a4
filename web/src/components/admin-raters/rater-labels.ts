import { RATERS } from '@snapcracks/http-contract';
import { formatCountOf, formatDate, formatRelativeTime } from '@/lib/format';
import type { Rater, RaterAction, RaterSort, RaterVote } from '@/lib/types';

/** The name of a member whose account is gone (their votes stay). */
export const NO_NAME = 'Deleted account';

/** The score from which a rater stands out: emphasized in the list. */
export const HIGH_SCORE = 50;

/** What the list can be sorted by, with the columns' names. */
export const SORT_LABELS: Record<RaterSort, string> = {
  score: 'Score',
  votes: 'Votes',
  mean: 'Mean',
  spread: 'Spread',
  deviation: 'Deviation',
  run: 'Longest run',
  bursts: 'Bursts',
};

/** The sort of the server's default (highest score first). */
export const DEFAULT_SORT: RaterSort = 'score';

export function isRaterSort(value: string): value is RaterSort {
  return (RATERS.sorts as readonly string[]).includes(value);
}

export function raterName(rater: Pick<Rater, 'name'>): string {
  return rater.name ?? NO_NAME;
}

/** Two decimals, or "—" when there is no figure (no photo had enough other votes). */
export function formatFigure(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '—' : value.toFixed(2);
}

export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(1) : '0.0';
}

/** "5 minutes ago" for the last weeks, then the date; "—" when there is none. */
export function formatLastVote(timestamp: string | null, now = Date.now()): string {
  if (!timestamp) return '—';
  const age = now - new Date(timestamp).getTime();
  return (age < 30 * 24 * 60 * 60 * 1000 ? formatRelativeTime(timestamp, now) : formatDate(timestamp)) ?? '—';
}

/** "3 voided", "2 suspended": what of a rater's votes does not count, when any. */
export function uncountedNotes(rater: Pick<Rater, 'voided' | 'suspended'>): string[] {
  const notes: string[] = [];
  if (rater.voided > 0) notes.push(`${rater.voided} voided`);
  if (rater.suspended > 0) notes.push(`${rater.suspended} suspended`);
  return notes;
}

/** Whether a vote counts, and why not: a void (with its reason) comes before a disabled account. */
export function voteStatus(vote: Pick<RaterVote, 'voidedAt' | 'voidReason' | 'suspended'>): { kind: 'counts' | 'voided' | 'suspended'; label: string } {
  if (vote.voidedAt) return { kind: 'voided', label: vote.voidReason ? `Voided — ${vote.voidReason}` : 'Voided' };
  if (vote.suspended) return { kind: 'suspended', label: 'Suspended (account disabled)' };
  return { kind: 'counts', label: 'Counts' };
}

/** "Voided 6 votes (all)", "Restored 1 vote". */
export function actionSummary(action: Pick<RaterAction, 'action' | 'votes' | 'allVotes'>): string {
  const verb = action.action === 'void' ? 'Voided' : 'Restored';
  return `${verb} ${formatCountOf(action.votes, 'vote')}${action.allVotes ? ' (all)' : ''}`;
}

/** The toast after a void or restoration: "3 votes voided.", or that nothing changed. */
export function changedMessage(kind: 'void' | 'restore', changed: number): string {
  if (changed === 0) return 'No votes changed.';
  return `${formatCountOf(changed, 'vote')} ${kind === 'void' ? 'voided' : 'restored'}.`;
}
