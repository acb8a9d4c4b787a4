// libheif-js ships no types for the entry loaded here; a triple-slash reference carries ours into every program that
// compiles this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./libheif-js.d.ts" />
import type { LibHeif } from 'libheif-js/wasm-bundle';

// libheif's C API, as its WebAssembly build (libheif-js) exports it. The JavaScript wrappers libheif-js and heic-decode
// add on top hand out neither the colour profile nor the decoding warnings, and copy the file and the pixels more
// than once; the C API gives all of it, at the cost of managing the WebAssembly memory here.

const HEIF_ERROR_OK = 0;
const HEIF_COLORSPACE_RGB = 1;
const HEIF_CHROMA_INTERLEAVED_RGB = 10;
const HEIF_CHROMA_INTERLEAVED_RGBA = 11;
const HEIF_CHANNEL_INTERLEAVED = 10;
/**
 * Decoding warnings that mean part of the picture was not painted (heif_error.h): libheif decodes a grid leniently and
 * leaves a tile whose data is missing or undecodable one flat colour. Others are harmless (an nclx box that disagrees
 * with the bitstream, a missing ispe, an optional box libheif could not parse) and leave the picture whole.
 */
const HEIF_ERROR_DECODER_PLUGIN_ERROR = 7;
const MISSING_DATA_SUBERRORS = new Map([
  [100, 'end of data'],
  [117, 'no item data'],
  [119, 'missing grid images'],
]);

/** The colour description of the primary image, as the file's `colr` box gives it. */
export type HeifColourProfile =
  | { kind: 'icc'; icc: Buffer }
  | { kind: 'nclx'; colourPrimaries: number; transferCharacteristics: number; matrixCoefficients: number; fullRange: boolean };

let loaded: Promise<LibHeif> | undefined;

/** libheif, loaded on first use so that threads that never see a HEIC never compile its 1.4 MB of WebAssembly. */
function libheif(): Promise<LibHeif> {
  loaded ??= import('libheif-js/wasm-bundle').then(async ({ default: lib }) => {
    await lib.ready;
    return lib;
  });
  return loaded;
}

/**
 * The primary image of a HEIF file, open in libheif. The file is copied once into WebAssembly memory and read there
 * in place; close() frees it with everything libheif made from it. Synchronous WebAssembly throughout, which is why
 * only the HEIC worker thread ever opens one.
 */
export class HeifPrimaryImage {
  /** 12 bytes for a heif_error, then 4 for an out-pointer. */
  private readonly scratch: number;
  private context = 0;
  private handle = 0;
  private closed = false;

  private constructor(
    private readonly lib: LibHeif,
    private readonly file: number,
  ) {
    this.scratch = lib._malloc(16);
  }

  /** Reads the file's structure (not its pixels); throws when libheif cannot. */
  static async open(bytes: Uint8Array): Promise<HeifPrimaryImage> {
    const lib = await libheif();
    const file = lib._malloc(bytes.length);
    if (file === 0) throw new Error('out of WebAssembly memory for the file');
    lib.HEAPU8.set(bytes, file);
    const image = new HeifPrimaryImage(lib, file);
    try {
      image.context = lib._heif_context_alloc();
      lib._heif_context_read_from_memory_without_copy(image.scratch, image.context, file, bytes.length, 0);
      image.check('reading the file');
      lib._heif_context_get_primary_image_handle(image.scratch, image.context, image.scratch + 12);
      image.check('finding the primary image');
      image.handle = lib.HEAPU32[(image.scratch + 12) >> 2]!;
      return image;
    } catch (error) {
      image.close();
      throw error;
    }
  }

  /** The size of the picture as it is shown: after the file's rotation and crop. */
  get width(): number {
    return this.lib._heif_image_handle_get_width(this.handle);
  }

  get height(): number {
    return this.lib._heif_image_handle_get_height(this.handle);
  }

  get hasAlpha(): boolean {
    return this.lib._heif_image_handle_has_alpha_channel(this.handle) !== 0;
  }

  /** The ICC profile when the file has one (also when it has an nclx description besides), else its nclx description. */
  colourProfile(): HeifColourProfile | undefined {
    const { lib, handle, scratch } = this;
    const iccSize = lib._heif_image_handle_get_raw_color_profile_size(handle);
    if (iccSize > 0) {
      const icc = lib._malloc(iccSize);
      try {
        lib._heif_image_handle_get_raw_color_profile(scratch, handle, icc);
        this.check('reading the ICC profile');
        return { kind: 'icc', icc: Buffer.from(lib.HEAPU8.subarray(icc, icc + iccSize)) };
      } finally {
        lib._free(icc);
      }
    }
    lib._heif_image_handle_get_nclx_color_profile(scratch, handle, scratch + 12);
    if (lib.HEAP32[scratch >> 2] !== HEIF_ERROR_OK) return undefined;
    const nclx = lib.HEAPU32[(scratch + 12) >> 2]!;
    try {
      // struct heif_color_profile_nclx: uint8 version, then three enums (4 bytes each) from byte 4, then uint8 full_range_flag.
      const words = lib.HEAP32;
      return {
        kind: 'nclx',
        colourPrimaries: words[(nclx + 4) >> 2]!,
        transferCharacteristics: words[(nclx + 8) >> 2]!,
        matrixCoefficients: words[(nclx + 12) >> 2]!,
        fullRange: lib.HEAPU8[nclx + 16] !== 0,
      };
    } finally {
      lib._heif_nclx_color_profile_free(nclx);
    }
  }

  /**
   * Decodes the picture to interleaved 8-bit RGB (or RGBA), upright (libheif applies the file's rotation, mirroring and
   * crop), and copies it into `target` (width × height × channels bytes, rows top to bottom): the only copy of the
   * picture outside WebAssembly memory. Throws when libheif cannot decode it, or when libheif left part of it unpainted
   * (a grid's missing tiles come out one flat colour).
   */
  decode(channels: 3 | 4, target: Uint8Array): void {
    const { lib, handle, scratch } = this;
    const chroma = channels === 4 ? HEIF_CHROMA_INTERLEAVED_RGBA : HEIF_CHROMA_INTERLEAVED_RGB;
    lib._heif_decode_image(scratch, handle, scratch + 12, HEIF_COLORSPACE_RGB, chroma, 0);
    this.check('decoding');
    const image = lib.HEAPU32[(scratch + 12) >> 2]!;
    try {
      const missing = this.missingDataWarning(image);
      if (missing) throw new Error(`decoded with part of the picture missing (${missing})`);
      const plane = lib._heif_image_get_plane_readonly2(image, HEIF_CHANNEL_INTERLEAVED, scratch);
      const stride = lib.HEAPU32[scratch >> 2]!;
      const rowBytes = this.width * channels;
      const height = this.height;
      if (plane === 0 || target.length !== rowBytes * height) throw new Error('libheif gave no pixels of the expected size');
      const heap = lib.HEAPU8;
      if (stride === rowBytes) target.set(heap.subarray(plane, plane + rowBytes * height));
      else for (let y = 0; y < height; y++) target.set(heap.subarray(plane + y * stride, plane + y * stride + rowBytes), y * rowBytes);
    } finally {
      lib._heif_image_release(image);
    }
  }

  /** Frees the file and what libheif made from it; once only, whatever happened before. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const { lib } = this;
    if (this.handle) lib._heif_image_handle_release(this.handle);
    if (this.context) lib._heif_context_free(this.context);
    lib._free(this.file);
    lib._free(this.scratch);
  }

  /** The first decoding warning that means part of the picture was not painted, named. */
  private missingDataWarning(image: number): string | undefined {
    const { lib } = this;
    const count = lib._heif_image_get_decoding_warnings(image, 0, 0, 0);
    if (count === 0) return undefined;
    const warnings = lib._malloc(count * 12);
    try {
      const filled = lib._heif_image_get_decoding_warnings(image, 0, warnings, count);
      for (let i = 0; i < filled; i++) {
        const [code, subcode] = [lib.HEAP32[(warnings + i * 12) >> 2]!, lib.HEAP32[(warnings + i * 12 + 4) >> 2]!];
        const name = MISSING_DATA_SUBERRORS.get(subcode) ?? (code === HEIF_ERROR_DECODER_PLUGIN_ERROR ? `a tile the decoder failed on (${subcode})` : undefined);
        if (name) return name;
      }
      return undefined;
    } finally {
      lib._free(warnings);
    }
  }

  /** Throws the heif_error in scratch, unless it is heif_error_Ok. */
  private check(doing: string): void {
    const { lib, scratch } = this;
    if (lib.HEAP32[scratch >> 2] === HEIF_ERROR_OK) return;
    const message = cString(lib, lib.HEAPU32[(scratch + 8) >> 2]!);
    throw new Error(`libheif failed ${doing}: ${message || `error ${lib.HEAP32[scratch >> 2]}.${lib.HEAP32[(scratch + 4) >> 2]}`}`);
  }
}

function cString(lib: LibHeif, pointer: number): string {
  if (pointer === 0) return '';
  const heap = lib.HEAPU8;
  let end = pointer;
  while (end < heap.length && heap[end] !== 0) end++;
  return Buffer.from(heap.subarray(pointer, end)).toString('utf8');
}
