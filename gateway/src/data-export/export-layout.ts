import type { ImageSize } from '@snapcracks/http-contract';

/**
 * What a member's zip holds and how its files are named: the pure half of the export, kept apart from the gathering
 * so its rules are tested alone.
 */

/** A photo's files in the zip, by the size the API names them with (`?size=`), and their names. */
export const PHOTO_FILES: ReadonlyArray<{ size: ImageSize; name: string }> = [
  { size: 'original', name: 'original' },
  { size: 'display', name: 'display' },
  { size: 'medium', name: 'medium' },
  { size: 'thumb', name: 'thumbnail' },
];

export type PhotoFileName = (typeof PHOTO_FILES)[number]['name'];

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/avif': 'avif',
};

/** `photos/17/original.jpg`: a photo's file in the zip, its extension from the stored image's type. */
export function photoFilePath(photoId: number, name: PhotoFileName, contentType: string): string {
  return `photos/${photoId}/${name}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/** The JSON files, in the order they are written, and the README that explains them. */
export const FILES = {
  readme: 'README.txt',
  account: 'account.json',
  avatar: (contentType: string) => `avatar.${EXTENSIONS[contentType] ?? 'bin'}`,
  photos: 'photos.json',
  votes: 'votes.json',
  reports: 'reports.json',
  contactMessages: 'contact-messages.json',
} as const;

/** The file a browser saves: `snapcracks-export-2026-11-29.zip`, the day (UTC) the copy was made. */
export function downloadName(madeAt: Date): string {
  return `snapcracks-export-${madeAt.toISOString().slice(0, 10)}.zip`;
}

/** JSON as the zip holds it: indented, one final newline. */
export function jsonFile(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
}

/** The README at the top of the zip: what each file is, in plain words. */
export function readme({ userId, madeAt, photos, hasAvatar }: { userId: string; madeAt: Date; photos: number; hasAvatar: boolean }): string {
  return [
    'Your data from Snap Cracks',
    '==========================',
    '',
    `Account ${userId}, copied on ${madeAt.toISOString()} (UTC).`,
    'Times in the files are in UTC (ISO 8601).',
    '',
    `${FILES.account}`,
    '  Your profile: names, email, display name, avatar, whether you accepted the terms and when.',
    ...(hasAvatar ? ['avatar.webp', '  The avatar you uploaded, as stored (256 px, no metadata).'] : []),
    `${FILES.photos}`,
    `  Your ${photos} ${photos === 1 ? 'photo' : 'photos'} at every status: description, alt text, privacy bars, status,`,
    '  the reason for a rejection or removal, your resubmission, rating and votes received. Each photo lists',
    '  under "files" the files of it in this zip.',
    'photos/<id>/original.<ext>',
    '  The photo as stored when you uploaded it: turned upright, its location and camera data removed, with no',
    '  privacy bars.',
    'photos/<id>/display.webp, medium.webp, thumbnail.webp',
    '  The images others see (2048, 960 and 480 px at most), with your privacy bars burned in. A photo without a',
    '  medium image yet has none here.',
    `${FILES.votes}`,
    '  Every rating you gave: the photo, the stars, when, and whether it counts (an admin may set a vote aside;',
    '  the votes of a disabled account do not count while it is).',
    `${FILES.reports}`,
    '  The photos you reported, why, and what came of it.',
    `${FILES.contactMessages}`,
    '  The messages you sent to the team while signed in, and their status.',
    '',
  ].join('\n');
}

/**
 * Percent done from files written out of files planned, never 100 before the end (the zip is still being stored) and
 * never backwards.
 */
export function percentDone(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(99, Math.floor((done * 100) / total)));
}

/**
 * Writes progress at most once per `intervalMs` (and whenever the step changes), so a member with thousands of photos
 * costs a handful of row updates a minute, not one per file. `flush` writes what is pending at once.
 */
export class ProgressThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastStep: string | undefined;
  private lastPercent = -1;

  constructor(
    private readonly write: (percent: number, step: string) => Promise<void>,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `report(percent, step)` would write now. */
  due(percent: number, step: string): boolean {
    if (step !== this.lastStep) return true;
    return percent !== this.lastPercent && this.now() - this.lastAt >= this.intervalMs;
  }

  async report(percent: number, step: string): Promise<void> {
    if (!this.due(percent, step)) return;
    await this.flush(percent, step);
  }

  async flush(percent: number, step: string): Promise<void> {
    this.lastAt = this.now();
    this.lastStep = step;
    this.lastPercent = percent;
    await this.write(percent, step);
  }
}
