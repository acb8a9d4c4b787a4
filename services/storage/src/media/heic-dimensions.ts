/**
 * The largest image size a HEIF file declares, read from its structure alone (no WebAssembly, no pixels): every
 * `ispe` (image spatial extents, ISO/IEC 23008-12 §6.5.3) property in `meta` → `iprp` → `ipco`. The primary image's
 * size is one of them (a grid's is the whole picture's, its tiles' are smaller), so refusing on the largest never lets
 * a large primary image through, whichever item is primary. Undefined when the file has no such property (libheif then
 * refuses it, or its own size check after opening applies).
 *
 * This is what lets the storage service refuse a decompression bomb (a few kB of HEVC that decode to hundreds of
 * megapixels) on its own thread, before the file is queued for, copied into or opened by the HEIC decoder, whose
 * WebAssembly memory only ever grows.
 */
export function heicDeclaredSize(file: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const meta = childBox(view, 0, view.byteLength, 'meta');
  // meta is a full box: version and flags come before its children.
  const iprp = meta && childBox(view, meta.body + 4, meta.end, 'iprp');
  const ipco = iprp && childBox(view, iprp.body, iprp.end, 'ipco');
  if (!ipco) return undefined;
  let largest: { width: number; height: number } | undefined;
  for (const box of boxes(view, ipco.body, ipco.end)) {
    // ispe: version and flags (4 bytes), then width and height (32 bits each).
    if (box.type !== 'ispe' || box.body + 12 > box.end) continue;
    const width = view.getUint32(box.body + 4);
    const height = view.getUint32(box.body + 8);
    if (!largest || width * height > largest.width * largest.height) largest = { width, height };
  }
  return largest;
}

interface Box {
  type: string;
  /** Where the box's contents start, after its header. */
  body: number;
  /** Where the box ends, never past its parent's end. */
  end: number;
}

function childBox(view: DataView, start: number, end: number, type: string): Box | undefined {
  for (const box of boxes(view, start, end)) if (box.type === type) return box;
  return undefined;
}

/** The boxes from `start` to `end`, stopping at the first whose header does not fit. */
function* boxes(view: DataView, start: number, end: number): Generator<Box> {
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
      // The box runs to the end of its parent.
      size = limit - offset;
    }
    if (size < body - offset) return;
    yield { type, body, end: Math.min(offset + size, limit) };
    offset += size;
  }
}
