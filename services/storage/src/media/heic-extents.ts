import { firstBox } from './isobmff-boxes.js';

/**
 * Whether every item's data of a HEIF file lies inside the file: a cut-off upload is found before anything is
 * decoded. libheif refuses a single image whose data is cut short, but decodes a grid (every iPhone photo is one,
 * of 512 px tiles) leniently: a tile whose bytes are missing becomes a decoding warning and a flat patch, so the
 * picture would be stored with blank tiles.
 *
 * Only the file's structure is read: the top-level `meta` box and its `iloc` box (ISO/IEC 14496-12 §8.11.3), which
 * says where each item's bytes are. Items stored in the file itself (construction method 0) are checked; data in the
 * `idat` box is inside `meta`, and data taken from another item is checked as that item. A file this cannot read
 * (no `meta`, no `iloc`, a version it does not know) is left to libheif, which refuses what it cannot decode.
 */
export function missingItemData(file: Uint8Array): string | undefined {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const meta = firstBox(view, 0, view.byteLength, 'meta');
  if (!meta) return undefined;
  if (meta.end > view.byteLength) return `the meta box ends at byte ${meta.end}, past the file's end (${view.byteLength})`;
  // meta is a full box: version and flags come before its children.
  const iloc = firstBox(view, meta.body + 4, meta.end, 'iloc');
  if (!iloc) return undefined;
  return readIloc(view, iloc.body, iloc.end);
}

function readIloc(view: DataView, start: number, end: number): string | undefined {
  const reader = new Reader(view, start, end);
  const version = reader.uint(1);
  reader.skip(3); // flags
  const sizes = reader.uint(2);
  if (version === undefined || sizes === undefined || version > 2) return undefined;
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 0xf;
  const baseOffsetSize = (sizes >> 4) & 0xf;
  const indexSize = version === 0 ? 0 : sizes & 0xf;
  const itemCount = reader.uint(version < 2 ? 2 : 4);
  if (itemCount === undefined) return undefined;
  for (let i = 0; i < itemCount; i++) {
    const itemId = reader.uint(version < 2 ? 2 : 4);
    const constructionMethod = version === 0 ? 0 : (reader.uint(2) ?? 0) & 0xf;
    const dataReferenceIndex = reader.uint(2);
    const baseOffset = reader.field(baseOffsetSize);
    const extentCount = reader.uint(2);
    if (itemId === undefined || dataReferenceIndex === undefined || baseOffset === undefined || extentCount === undefined) return ilocCutShort(reader);
    for (let j = 0; j < extentCount; j++) {
      reader.field(indexSize);
      const extentOffset = reader.field(offsetSize);
      const extentLength = reader.field(lengthSize);
      if (extentOffset === undefined || extentLength === undefined) return ilocCutShort(reader);
      // Data in another file (a data reference other than this file) is not this check's business.
      if (constructionMethod !== 0 || dataReferenceIndex !== 0) continue;
      const first = baseOffset + extentOffset;
      // A length of 0 (the rest of the file, in the standard's words; nothing, to libheif) needs only its start inside.
      const last = first + extentLength;
      if (extentLength === 0 ? first > view.byteLength : last > view.byteLength) {
        return `item ${itemId}'s data ends at byte ${extentLength === 0 ? first : last}, past the file's end (${view.byteLength})`;
      }
    }
  }
  return undefined;
}

/** An iloc box that ends before the items it announces: cut short when the box runs past the end of the file. */
function ilocCutShort(reader: Reader): string | undefined {
  return reader.end > reader.view.byteLength ? `the iloc box ends past the file's end (${reader.view.byteLength})` : undefined;
}

/** Big-endian unsigned integers, never read past `end` or the file's end. */
class Reader {
  constructor(
    readonly view: DataView,
    private offset: number,
    readonly end: number,
  ) {}

  /** An integer of 1, 2, 4 or 8 bytes; undefined past the end. */
  uint(bytes: 1 | 2 | 4 | 8): number | undefined {
    if (this.offset + bytes > Math.min(this.end, this.view.byteLength)) return undefined;
    const at = this.offset;
    this.offset += bytes;
    if (bytes === 1) return this.view.getUint8(at);
    if (bytes === 2) return this.view.getUint16(at);
    if (bytes === 4) return this.view.getUint32(at);
    // Beyond 2^53 a number is no longer exact, but such an offset lies past any file we take anyway.
    return Number(this.view.getBigUint64(at));
  }

  /** An iloc field of the size its header gives: 4 or 8 bytes, and, as libheif reads them, none and 0 for any other. */
  field(bytes: number): number | undefined {
    return bytes === 4 || bytes === 8 ? this.uint(bytes) : 0;
  }

  skip(bytes: number): void {
    this.offset += bytes;
  }
}
