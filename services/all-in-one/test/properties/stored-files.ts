import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The files under `dir` (local blob storage keeps photos and avatars there), each with its size, sorted. */
export async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        // A file may go between the listing and the stat (a cleanup): then it is not there.
        const size = await stat(path).then((s) => s.size, () => null);
        return size === null ? null : `${relative(dir, path)} ${size}`;
      }),
  );
  return files.filter((file) => file !== null).sort();
}

/** The files once two listings a little apart agree (a blob being written or removed has finished). */
export async function settledFiles(dir: string, timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let previous = await storedFiles(dir);
  for (;;) {
    await sleep(25);
    const current = await storedFiles(dir);
    if (current.join('\n') === previous.join('\n') || Date.now() > deadline) return current;
    previous = current;
  }
}

/** What changed between two listings: files added and removed (a size change shows as both). */
export function fileChanges(before: string[], after: string[]): string {
  const was = new Set(before);
  const now = new Set(after);
  return [...after.filter((file) => !was.has(file)).map((file) => `+ ${file}`), ...before.filter((file) => !now.has(file)).map((file) => `- ${file}`)].join(', ');
}
