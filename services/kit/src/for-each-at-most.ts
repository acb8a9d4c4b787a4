/**
 * Runs `work` for each item in their order, at most `limit` at once (at least one). A failure starts nothing more: the
 * items under way finish, then the first failure is thrown. `until` is asked before each start; when it answers true,
 * nothing more starts either (a component stopping).
 */
export async function forEachAtMost<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  { until }: { until?: () => boolean } = {},
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && !until?.() && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  if (failure) throw failure.error;
}
