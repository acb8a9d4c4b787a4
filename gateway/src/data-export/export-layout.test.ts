import { describe, expect, it } from 'vitest';
import { FILES, ProgressThrottle, downloadName, jsonFile, percentDone, photoFilePath, readme } from './export-layout.js';

describe("the zip's layout", () => {
  it('names each photo file by photo id and kind, its extension from the stored type', () => {
    expect(photoFilePath(17, 'original', 'image/jpeg')).toBe('photos/17/original.jpg');
    expect(photoFilePath(17, 'original', 'image/png')).toBe('photos/17/original.png');
    expect(photoFilePath(17, 'thumbnail', 'image/webp')).toBe('photos/17/thumbnail.webp');
    expect(photoFilePath(3, 'display', 'application/x-unknown')).toBe('photos/3/display.bin');
  });

  it('offers the download as snapcracks-export-<UTC day>.zip', () => {
    expect(downloadName(new Date('2026-11-29T23:30:00-05:00'))).toBe('snapcracks-export-2026-11-30.zip');
  });

  it('writes JSON indented with a final newline', () => {
    expect(jsonFile({ a: [1] }).toString()).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });

  it('explains every file in the README, the avatar only when there is one', () => {
    const text = readme({ userId: 'u-1', madeAt: new Date('2026-11-29T10:00:00Z'), photos: 1, hasAvatar: false });
    for (const name of [FILES.account, FILES.photos, FILES.votes, FILES.reports, FILES.contactMessages, 'photos/<id>/original.<ext>']) expect(text).toContain(name);
    expect(text).toContain('Account u-1, copied on 2026-11-29T10:00:00.000Z');
    expect(text).toContain('Your 1 photo at every status');
    expect(text).not.toContain('avatar.webp');
    expect(readme({ userId: 'u-1', madeAt: new Date(), photos: 2, hasAvatar: true })).toContain('avatar.webp');
  });
});

describe('progress', () => {
  it('is files done over files planned, below 100 until the copy is stored', () => {
    expect(percentDone(0, 10)).toBe(0);
    expect(percentDone(5, 10)).toBe(50);
    expect(percentDone(10, 10)).toBe(99);
    expect(percentDone(3, 0)).toBe(0);
    expect(percentDone(1, 3)).toBe(33);
  });

  it('is written at most once per interval, but at once when the step changes', async () => {
    let now = 0;
    const written: Array<[number, string]> = [];
    const throttle = new ProgressThrottle(async (percent, step) => void written.push([percent, step]), 1000, () => now);
    await throttle.report(0, 'a');
    await throttle.report(10, 'a');
    now = 999;
    await throttle.report(20, 'a');
    now = 1000;
    await throttle.report(30, 'a');
    await throttle.report(30, 'a');
    await throttle.report(31, 'b');
    await throttle.flush(32, 'b');
    expect(written).toEqual([
      [0, 'a'],
      [30, 'a'],
      [31, 'b'],
      [32, 'b'],
    ]);
  });
});
