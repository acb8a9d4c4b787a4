// libheif-js ships types for its embind API only, not for the entry the storage service loads; this is the part of
// libheif's C API (exported from its WebAssembly build, each with a leading underscore) that heic-libheif.ts calls.
// Every pointer is a number, an offset into HEAPU8. A C function that returns a struct heif_error takes, first, a
// pointer to 12 bytes where it writes it (code, subcode, message pointer; each 4 bytes).
declare module 'libheif-js/wasm-bundle' {
  export interface LibHeif {
    /** Resolves once the module is set up (the bundle sets itself up while it loads). */
    readonly ready?: Promise<unknown>;
    /** Views of the WebAssembly memory; replaced when the memory grows, so read them after every call. */
    readonly HEAPU8: Uint8Array;
    readonly HEAP32: Int32Array;
    readonly HEAPU32: Uint32Array;
    _malloc(size: number): number;
    _free(pointer: number): void;
    _heif_get_version_number(): number;
    _heif_context_alloc(): number;
    _heif_context_free(context: number): void;
    _heif_context_read_from_memory_without_copy(error: number, context: number, data: number, size: number, options: number): void;
    _heif_context_get_primary_image_handle(error: number, context: number, outHandle: number): void;
    _heif_image_handle_release(handle: number): void;
    _heif_image_handle_get_width(handle: number): number;
    _heif_image_handle_get_height(handle: number): number;
    _heif_image_handle_has_alpha_channel(handle: number): number;
    _heif_image_handle_get_raw_color_profile_size(handle: number): number;
    _heif_image_handle_get_raw_color_profile(error: number, handle: number, out: number): void;
    _heif_image_handle_get_nclx_color_profile(error: number, handle: number, outProfile: number): void;
    _heif_nclx_color_profile_free(profile: number): void;
    _heif_decode_image(error: number, handle: number, outImage: number, colorspace: number, chroma: number, options: number): void;
    _heif_image_get_plane_readonly2(image: number, channel: number, outStride: number): number;
    _heif_image_get_decoding_warnings(image: number, first: number, out: number, max: number): number;
    _heif_image_release(image: number): void;
  }
  const libheif: LibHeif;
  export default libheif;
}
