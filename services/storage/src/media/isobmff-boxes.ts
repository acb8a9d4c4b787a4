/**
 * The boxes of an ISO base media file (ISO/IEC 14496-12 §4.2), which HEIF is: read from the structure alone, so that a
 * file's claims can be checked before any decoder sees it.
 */
export interface Box {
  type: string;
  /** Where the box's contents start, after its header. */
  body: number;
  /** Where the box ends as its header says, which may be past its parent's end or the file's. */
  end: number;
}

/** The boxes from `start` to `end` (never past the file), stopping at the first whose header does not fit. */
export function* boxes(view: DataView, start: number, end: number): Generator<Box> {
  const limit = Math.min(end, view.byteLength);
  let offset = start;
  while (offset + 8 <= limit) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(view.getUint8(offset + 4), view.getUint8(offset + 5), view.getUint8(offset + 6), view.getUint8(offset + 7));
    let body = offset + 8;
    if (size === 1) {
      // A 64-bit size follows the type.
      if (body + 8 > limit) return;
      size = Number(view.getBigUint64(body));
      body += 8;
    } else if (size === 0) {
      // The box runs to the end of its parent (for a top-level box, of the file).
      size = limit - offset;
    }
    if (size < body - offset) return;
    yield { type, body, end: offset + size };
    offset += size;
  }
}

/** The first box of `type` among the boxes from `start` to `end`. */
export function firstBox(view: DataView, start: number, end: number, type: string): Box | undefined {
  for (const box of boxes(view, start, end)) if (box.type === type) return box;
  return undefined;
}
