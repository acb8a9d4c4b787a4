/** "Jul 28, 2025" for a valid timestamp, otherwise null. */
export function formatUploadDate(timestamp: string | null | undefined): string | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** An average rating with one decimal, e.g. "4.0". */
export function formatRating(rating: number | null | undefined): string {
  const value = typeof rating === 'number' && Number.isFinite(rating) ? rating : 0;
  return value.toFixed(1);
}

export function formatVoteCount(count: number | null | undefined): string {
  const value = typeof count === 'number' && Number.isFinite(count) ? count : 0;
  return `${value} ${value === 1 ? 'vote' : 'votes'}`;
}
