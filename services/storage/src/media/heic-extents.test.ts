import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingItemData } from './heic-extents.js';
import { fixture } from './test-images.js';

const REAL = new URL('../../test/fixtures/real/', import.meta.url);
const realHeics = readdirSync(REAL).filter((name) => name.endsWith('.heic'));
const grid = () => readFileSync(new URL('nokia-n70-grid-irot.derived.heic', REAL));

// ISO BMFF boxes, to lay out files as no encoder we have writes them.
const u8 = (value: number) => Buffer.from([value]);
const u16 = (value: number) => Buffer.from([value >> 8, value & 255]);
const u32 = (value: number) => Buffer.from([value >>> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255]);
const u64 = (value: number) => Buffer.concat([u32(Math.floor(value / 2 ** 32)), u32(value >>> 0)]);
const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
};
const fullBox = (type: string, version: number, ...parts: Buffer[]) => box(type, u8(version), Buffer.from([0, 0, 0]), ...parts);
const FTYP = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'));
/**
 * A file of ftyp, then `before`, meta holding the iloc box `iloc` makes, then `after`. `iloc` is given where the contents
 * of `after` start (after its 8-byte header), and must make a box of the same size whatever it is given.
 */
const heif = (iloc: (afterBody: number) => Buffer, before: Buffer = Buffer.alloc(0), after: Buffer = Buffer.alloc(0)) => {
  const meta = (afterBody: number) => fullBox('meta', 0, fullBox('hdlr', 0, u32(0), Buffer.from('pict', 'latin1'), u32(0), u32(0), u32(0), u8(0)), iloc(afterBody));
  return Buffer.concat([FTYP, before, meta(FTYP.length + before.length + meta(0).length + 8), after]);
};

describe('missingItemData', () => {
  it.each(['photo.heic', ...realHeics.map((name) => `real/${name}`)])('finds nothing missing in the whole file %s', (name) => {
    expect(missingItemData(fixture(name))).toBeUndefined();
  });

  it('finds the data missing in a grid HEIC cut anywhere after its header, down to its last byte', () => {
    const whole = grid();
    // ftyp (28 bytes), then meta: a cut inside meta's own 8-byte header leaves no meta to read (libheif refuses that).
    for (let length = 28 + 8; length < whole.length; length++) {
      expect(missingItemData(whole.subarray(0, length)), `cut to ${length} of ${whole.length} bytes`).toBeDefined();
    }
  });

  it('names the item whose data is missing', () => {
    const whole = grid();
    expect(missingItemData(whole.subarray(0, whole.length - 1))).toBe(`item 5's data ends at byte ${whole.length}, past the file's end (${whole.length - 1})`);
    expect(missingItemData(whole.subarray(0, 100))).toBe("the meta box ends at byte 898, past the file's end (100)");
  });

  it('reads version 1 with 64-bit offsets and a base offset, and version 2 with 32-bit item ids and extent indexes', () => {
    const data = Buffer.alloc(100, 7);
    // Version 1: offset, length and base offset of 8 bytes each, no index.
    const v1 = (extentLength: number) => (dataStart: number) =>
      fullBox('iloc', 1, u8(0x88), u8(0x80), u16(1), u16(1), u16(0), u16(0), u64(dataStart - 10), u16(1), u64(10), u64(extentLength));
    expect(missingItemData(heif(v1(100), undefined, box('mdat', data)))).toBeUndefined();
    expect(missingItemData(heif(v1(101), undefined, box('mdat', data)))).toMatch(/^item 1's data ends at byte \d+, past the file's end/);
    // Version 2: 4-byte offsets and lengths, 4-byte extent indexes, item ids above 65535.
    const v2 = (extentLength: number) => (dataStart: number) =>
      fullBox('iloc', 2, u8(0x44), u8(0x04), u32(1), u32(70_000), u16(0), u16(0), u16(1), u32(0), u32(dataStart), u32(extentLength));
    expect(missingItemData(heif(v2(100), undefined, box('mdat', data)))).toBeUndefined();
    expect(missingItemData(heif(v2(200), undefined, box('mdat', data)))).toMatch(/^item 70000's data ends at byte \d+, past the file's end/);
  });

  it('leaves data in idat, in another item or in another file alone', () => {
    // Construction methods 1 (idat) and 2 (item), and data reference 1 (another file): offsets far past this file.
    const iloc = () =>
      fullBox(
        'iloc',
        1,
        u8(0x44),
        u8(0x00),
        u16(3),
        ...[
          [1, 1, 0],
          [2, 2, 0],
          [3, 0, 1],
        ].flatMap(([id, method, reference]) => [u16(id!), u16(method!), u16(reference!), u16(1), u32(1_000_000), u32(1_000)]),
      );
    expect(missingItemData(heif(iloc))).toBeUndefined();
  });

  it('takes an extent length of 0 as "to the end of the file"', () => {
    const iloc = (offset: number) => () => fullBox('iloc', 0, u8(0x44), u8(0x00), u16(1), u16(1), u16(0), u16(1), u32(offset), u32(0));
    const file = heif(iloc(0), undefined, box('mdat', Buffer.alloc(10)));
    expect(missingItemData(file)).toBeUndefined();
    expect(missingItemData(heif(iloc(file.length - 4), undefined, box('mdat', Buffer.alloc(10))))).toBeUndefined();
    expect(missingItemData(heif(iloc(file.length + 1), undefined, box('mdat', Buffer.alloc(10))))).toMatch(/past the file's end/);
  });

  it('accepts a whole file laid out unusually: data before meta, a 64-bit box size, a last box without a size', () => {
    const data = Buffer.alloc(50, 1);
    // mdat first, with a 64-bit size (size field 1), its data from byte FTYP.length + 16.
    const largeMdat = Buffer.concat([u32(1), Buffer.from('mdat', 'latin1'), u64(16 + data.length), data]);
    const iloc = () => fullBox('iloc', 0, u8(0x44), u8(0x00), u16(1), u16(1), u16(0), u16(1), u32(FTYP.length + 16), u32(data.length));
    expect(missingItemData(heif(iloc, largeMdat))).toBeUndefined();
    // A free box before meta, and an mdat whose size field is 0 (it runs to the end of the file).
    const dataAfter = (dataStart: number) => fullBox('iloc', 0, u8(0x44), u8(0x00), u16(1), u16(1), u16(0), u16(1), u32(dataStart), u32(data.length));
    const openMdat = Buffer.concat([u32(0), Buffer.from('mdat', 'latin1'), data]);
    const file = heif(dataAfter, box('free', Buffer.alloc(3)), openMdat);
    expect(missingItemData(file)).toBeUndefined();
    expect(missingItemData(file.subarray(0, file.length - 1))).toMatch(/^item 1's data ends/);
  });

  it('leaves what it cannot read to libheif, and never throws', () => {
    expect(missingItemData(Buffer.alloc(0))).toBeUndefined();
    expect(missingItemData(FTYP)).toBeUndefined();
    expect(missingItemData(heif(() => fullBox('iloc', 3, u8(0x44), u8(0)), undefined))).toBeUndefined();
    expect(missingItemData(heif(() => box('free')))).toBeUndefined();
    // Field sizes iloc does not allow (2 bytes) are not read, as libheif reads them: offset 0, length 0.
    expect(missingItemData(heif(() => fullBox('iloc', 0, u8(0x22), u8(0x00), u16(1), u16(1), u16(0), u16(1), u16(60_000), u16(60_000))))).toBeUndefined();
    // Any bytes at all.
    let seed = 1;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const whole = grid();
    for (let i = 0; i < 2_000; i++) {
      const mangled = Buffer.from(whole.subarray(0, 1 + Math.floor(random() * whole.length)));
      for (let j = 0; j < 8; j++) mangled[Math.floor(random() * Math.min(mangled.length, 1_000))] = Math.floor(random() * 256);
      expect(() => missingItemData(mangled)).not.toThrow();
    }
  });
});
