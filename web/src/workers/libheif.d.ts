// libheif-js ships types for its raw Emscripten exports only; this is the part of its JavaScript API the HEIC
// preview worker uses (libheif-wasm/libheif.js: the glue that loads libheif.wasm, LGPL-3.0 like libheif itself).
declare module 'libheif-js/libheif-wasm/libheif.js' {
  export interface HeifImage {
    get_width(): number;
    get_height(): number;
    is_primary(): boolean;
    /** Decodes to RGBA into `target.data`, with the file's rotation and mirroring applied; null on failure. */
    display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: { data: Uint8ClampedArray } | null) => void): void;
    free(): void;
  }

  export interface HeifDecoder {
    /** Every top-level image of the file (empty when it cannot be read). */
    decode(bytes: Uint8Array): HeifImage[];
  }

  export interface LibHeif {
    HeifDecoder: new () => HeifDecoder;
  }

  export interface LibHeifOptions {
    /**
     * Instantiates the WebAssembly module itself (Emscripten's hook), answering what `receive` answers. It must
     * instantiate synchronously: the library completes its API as soon as the factory has run.
     */
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => WebAssembly.Exports,
    ) => WebAssembly.Exports;
    onAbort?: (reason: unknown) => void;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }

  /** Sets the library up; with a synchronous instantiateWasm it is ready to use when this returns. */
  const createLibHeif: (options?: LibHeifOptions) => LibHeif;
  export default createLibHeif;
}
