import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * Image bytes cross between the storage service and its media process as files in a private directory, and only
 * their names go through the IPC pipe. Through the pipe, a 12 MP photo's bytes would be copied into new buffers
 * three times on the service's thread (serialised out, read in pieces, joined), and every few dozen MB of new
 * buffers costs the service a full garbage collection that holds up the calls it answers. A file costs one read.
 */

/** Where the bytes went. */
export interface BytesFile {
  file: string;
}

/**
 * Writes `data` to `name` in `dir`, making `dir` again (private) if a temporary-file cleaner removed it while the
 * service ran.
 */
export async function bytesToFile(dir: string, name: string, data: Uint8Array): Promise<BytesFile> {
  const file = join(dir, name);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(file, data);
  return { file };
}

/** Reads the bytes back and removes the file. */
export async function bytesFromFile({ file }: BytesFile): Promise<Buffer> {
  try {
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}

type WithData = { data: Uint8Array };
type WithFile = { data: BytesFile };

const isImage = (value: unknown): value is WithData => typeof value === 'object' && value !== null && (value as WithData).data instanceof Uint8Array;
const isImageInFile = (value: unknown): value is WithFile =>
  typeof value === 'object' && value !== null && typeof ((value as WithFile).data as BytesFile | undefined)?.file === 'string';

/**
 * A media result with every encoded image's `data` (the result itself, or one of its properties, as in
 * `{ original, display, thumbnail }`) written to a file named `<prefix>-<property>`.
 */
export async function imagesToFiles<T>(dir: string, prefix: string, value: T): Promise<T> {
  if (isImage(value)) return { ...value, data: await bytesToFile(dir, `${prefix}-image`, value.data) };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, part]) => [key, isImage(part) ? { ...part, data: await bytesToFile(dir, `${prefix}-${key}`, part.data) } : part]),
  );
  return Object.fromEntries(entries) as T;
}

/** The opposite of imagesToFiles: every image's bytes read back (and the files removed). */
export async function imagesFromFiles<T>(value: T): Promise<T> {
  if (isImageInFile(value)) return { ...value, data: await bytesFromFile(value.data) };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, part]) => [key, isImageInFile(part) ? { ...part, data: await bytesFromFile(part.data) } : part]),
  );
  return Object.fromEntries(entries) as T;
}
