/** "Jul 28, 2025" for a valid timestamp, otherwise null. */
export function formatUploadDate(timestamp: string | null | undefined): string | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

// Ratings and vote counts read the same everywhere (one decimal; "1 vote", "1,234 votes").
export { formatAverage as formatRating, formatVoteCount } from '@/components/photo/format';
