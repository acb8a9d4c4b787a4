import { readFileSync } from 'node:fs';
import fc, { type Arbitrary } from 'fast-check';
import { HOSTILE_STRINGS, sometimes } from './arbitraries.js';

/** A multipart upload as generated: its parts in order, the boundary the header names and the one the body uses, and where it is cut. */
export interface MultipartUpload {
  parts: Part[];
  /** The Content-Type header: multipart with the body's boundary, with another, with none, or not multipart at all. */
  header: 'boundary' | 'other boundary' | 'no boundary' | 'text/plain' | 'none';
  /** The share of the body's bytes sent (Content-Length says so): 1 is whole, less cuts it short. */
  kept: number;
}

export interface Part {
  name: string;
  /** A file part has a file name (possibly empty); a field has none. */
  filename: string | null;
  contentType: string | null;
  content: Content;
}

/** What a part holds, named rather than inlined so a failure's report stays short; bytes() makes them. */
export type Content = 'png' | 'png cut in half' | 'empty' | 'html named png' | { text: string } | { bytes: number[] };

const PNG = readFileSync(new URL('../../../storage/test/fixtures/photo.png', import.meta.url));
const BOUNDARY = 'snapcracks-property-boundary';

function bytesOf(content: Content): Buffer {
  if (content === 'png') return PNG;
  if (content === 'png cut in half') return PNG.subarray(0, PNG.length >> 1);
  if (content === 'empty') return Buffer.alloc(0);
  if (content === 'html named png') return Buffer.from('<!doctype html><script>alert(1)</script>');
  return 'text' in content ? Buffer.from(content.text) : Buffer.from(content.bytes);
}

/** The request's Content-Type header (null: none) and body bytes. */
export function encodeUpload(upload: MultipartUpload): { contentType: string | null; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const part of upload.parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === null ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === null ? '' : `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), bytesOf(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const whole = Buffer.concat(chunks);
  const body = whole.subarray(0, Math.floor(whole.length * upload.kept));
  const contentType = {
    boundary: `multipart/form-data; boundary=${BOUNDARY}`,
    'other boundary': 'multipart/form-data; boundary=not-the-one-used',
    'no boundary': 'multipart/form-data',
    'text/plain': 'text/plain',
    none: null,
  }[upload.header];
  return { contentType, body };
}

const text = (arbitrary: Arbitrary<string>) => arbitrary.map((t): Content => ({ text: t }));

/** A description as a person, a script or an attacker might write one: plain, at and over 500 characters, with control characters. */
const description: Arbitrary<Content> = fc.oneof(
  { weight: 3, arbitrary: text(fc.string({ maxLength: 60 })) },
  { weight: 1, arbitrary: text(fc.string({ unit: 'grapheme', maxLength: 40 })) },
  { weight: 2, arbitrary: text(fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 2_000), 'x'.repeat(500), 'x'.repeat(501), ' '.repeat(501), 'é'.repeat(500), 'line\nbreak\ttab')) },
  { weight: 1, arbitrary: text(fc.string({ unit: 'binary', maxLength: 30 })) },
);

const fileContent: Arbitrary<Content> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Content>('png') },
  { weight: 1, arbitrary: fc.constantFrom<Content>('png cut in half', 'empty', 'html named png') },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 }).map((bytes): Content => ({ bytes })) },
);

const filename = fc.oneof(
  { weight: 4, arbitrary: fc.constant('crack.png') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a\u0000.png', '../../etc/passwd', 'é😀.png', `${'x'.repeat(300)}.png`, 'a"b.png', 'no-extension', '.png') },
);

const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constant<string | null>('image/png') },
  { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'image/jpeg', 'image/heic', 'application/octet-stream', 'text/html', 'image/png; charset=utf-8', '') },
);

/**
 * An upload to a route whose file part is `fileField`: the file and a description (`describedOften`, or now and then),
 * in either order, now and
 * then with the file under another name, a second file, extra fields, a field where the file should be, an odd
 * boundary or a body cut short.
 */
export function uploadArbitrary(fileField: string, { describedOften }: { describedOften: boolean }): Arbitrary<MultipartUpload> {
  const file = fc.record({ name: fc.oneof({ weight: 5, arbitrary: fc.constant(fileField) }, { weight: 1, arbitrary: fc.constantFrom('photo', 'avatar', 'file', '') }), filename, contentType, content: fileContent });
  const descriptionField = fc.record({ name: fc.constant('description'), filename: fc.constant(null), contentType: fc.constant(null), content: description });
  const otherField = fc.record({ name: fc.constantFrom('title', fileField, 'description', '__proto__', 'a\u0000b'), filename: fc.constant(null), contentType: fc.constant(null), content: description });
  // The photo upload takes a description most times; the avatar takes none, so one there is a refusal to see now and then.
  const likely = fc.tuple(file, sometimes(descriptionField, describedOften ? 2 / 3 : 1 / 5), fc.boolean()).map(([f, d, descriptionFirst]) => (d === null ? [f] : descriptionFirst ? [d, f] : [f, d]));
  const odd = fc.array(fc.oneof(file, descriptionField, otherField), { maxLength: 4 });
  return fc.record({
    parts: fc.oneof({ weight: 4, arbitrary: likely }, { weight: 1, arbitrary: odd }),
    header: fc.oneof(
      { weight: 8, arbitrary: fc.constant<MultipartUpload['header']>('boundary') },
      { weight: 1, arbitrary: fc.constantFrom<MultipartUpload['header']>('other boundary', 'no boundary', 'text/plain', 'none') },
    ),
    kept: fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) }),
  });
}
