import { describe, expect, it } from 'vitest';
import { keysetPages } from './keyset-pages.js';

const table = [1, 2, 3, 4, 5, 6, 7];

async function collect(pageSize: number, rows = table) {
  const reads: (number | undefined)[] = [];
  const pages: number[][] = [];
  const readPage = async (after: number | undefined) => {
    reads.push(after);
    return rows.filter((row) => after === undefined || row > after).slice(0, pageSize);
  };
  for await (const page of keysetPages(readPage, (row) => row, pageSize)) pages.push(page);
  return { pages, reads };
}

describe('keysetPages', () => {
  it('reads every row once, in pages after the last key, and stops on a short page', async () => {
    expect(await collect(3)).toEqual({ pages: [[1, 2, 3], [4, 5, 6], [7]], reads: [undefined, 3, 6] });
  });

  it('stops on an empty page when the last page was full, and yields nothing for an empty table', async () => {
    expect(await collect(7)).toEqual({ pages: [table], reads: [undefined, 7] });
    expect(await collect(3, [])).toEqual({ pages: [], reads: [undefined] });
  });
});
