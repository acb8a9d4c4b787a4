/**
 * A table read a page at a time in key order (keyset pagination: each page one range scan of an index, whatever how
 * deep), the next page read only once the consumer has taken the previous one. `readPage(after)` answers up to
 * `pageSize` rows with keys greater than `after` (undefined for the first page), in key order.
 */
export async function* keysetPages<Row, Key>(
  readPage: (after: Key | undefined) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  pageSize: number,
): AsyncGenerator<Row[]> {
  for (let after: Key | undefined; ; ) {
    const rows = await readPage(after);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}
