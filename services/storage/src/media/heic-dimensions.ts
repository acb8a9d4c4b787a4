import { boxes, firstBox } from './isobmff-boxes.js';

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
  const meta = firstBox(view, 0, view.byteLength, 'meta');
  // meta is a full box: version and flags come before its children.
  const iprp = meta && firstBox(view, meta.body + 4, meta.end, 'iprp');
  const ipco = iprp && firstBox(view, iprp.body, iprp.end, 'ipco');
  if (!ipco) return undefined;
  let largest: { width: number; height: number } | undefined;
  for (const box of boxes(view, ipco.body, ipco.end)) {
    // ispe: version and flags (4 bytes), then width and height (32 bits each).
    if (box.type !== 'ispe' || box.body + 12 > Math.min(box.end, view.byteLength)) continue;
    const width = view.getUint32(box.body + 4);
    const height = view.getUint32(box.body + 8);
    if (!largest || width * height > largest.width * largest.height) largest = { width, height };
  }
  return largest;
}
