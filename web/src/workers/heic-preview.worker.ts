/**
 * Turns a HEIC/HEIF photo into a JPEG preview the upload page can show and draw privacy bars on, off the main
 * thread. The browser's own decoder is tried first (Safari reads HEIC); otherwise libheif's WebAssembly build
 * decodes it — the same decoder the storage service uses, so the preview is turned upright (the file's irot and
 * imir) exactly as the stored photo is. The .wasm is a file of our own build, fetched from our origin only when a
 * HEIC photo is chosen.
 */
import createLibHeif, { type LibHeif } from 'libheif-js/libheif-wasm/libheif.js';
import wasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';
import {
  HEIC_PREVIEW_MAX_PIXELS,
  previewSize,
  type HeicPreviewFailure,
  type HeicPreviewMessage,
  type HeicPreviewRequest,
  type HeicPreviewStage,
} from './heic-preview-protocol';

/** The worker's global scope, as much of it as this file uses (the web project compiles against DOM types). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HeicPreviewRequest>) => void) | null;
  postMessage(message: HeicPreviewMessage): void;
};

class PreviewError extends Error {
  constructor(
    readonly reason: HeicPreviewFailure,
    message: string,
  ) {
    super(message);
  }
}

const post = (message: HeicPreviewMessage) => scope.postMessage(message);
const stage = (name: HeicPreviewStage) => post({ type: 'stage', stage: name });

/** The decoder compiled while its bytes arrive (needs the server's application/wasm; else the plain way). */
async function compileDecoder(): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compileStreaming(fetch(wasmUrl, { credentials: 'same-origin' }));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const response = await fetch(wasmUrl, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`The decoder could not be loaded (${response.status})`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

async function loadLibHeif(): Promise<LibHeif> {
  const compiled = await compileDecoder();
  let aborted: unknown = null;
  const libheif = createLibHeif({
    // Instantiated at once, inside this call: libheif-js completes its API right after the module is set up, and
    // an instance that arrived later would leave it broken.
    instantiateWasm: (imports, receive) => receive(new WebAssembly.Instance(compiled, imports), compiled),
    onAbort: (reason) => {
      aborted = reason ?? 'aborted';
    },
    // libheif reports unreadable files on the console; the page says it in its own words.
    print: () => undefined,
    printErr: () => undefined,
  });
  if (aborted !== null) throw new Error(`The decoder stopped: ${String(aborted)}`);
  return libheif;
}

/** The photo at full size through the browser's own decoder, or null when the browser cannot read HEIC. */
async function decodeNatively(file: Blob): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
}

/** The photo at full size through libheif: upright RGBA pixels. */
async function decodeWithLibHeif(file: Blob, timings: { load: number; decode: number }): Promise<ImageData> {
  stage('loading-decoder');
  let started = performance.now();
  const [libheif, bytes] = await Promise.all([
    // A decoder that cannot be fetched or compiled (offline, a policy refusing WebAssembly) is not the file's fault.
    loadLibHeif().catch((error: unknown) => {
      throw new PreviewError('unavailable', error instanceof Error ? error.message : String(error));
    }),
    file.arrayBuffer().then((buffer) => new Uint8Array(buffer)),
  ]);
  timings.load = performance.now() - started;

  stage('decoding');
  started = performance.now();
  const images = new libheif.HeifDecoder().decode(bytes);
  const image = images.find((candidate) => candidate.is_primary()) ?? images[0];
  if (!image) throw new PreviewError('unreadable', 'No image found in the file');
  const width = image.get_width();
  const height = image.get_height();
  if (width * height > HEIC_PREVIEW_MAX_PIXELS) throw new PreviewError('too-large', `${width}×${height} is too large to preview`);
  const pixels = new Uint8ClampedArray(width * height * 4);
  const decoded = await new Promise<{ data: Uint8ClampedArray } | null>((resolve) => image.display({ data: pixels, width, height }, resolve));
  for (const each of images) each.free();
  if (!decoded) throw new PreviewError('unreadable', 'The image could not be decoded');
  timings.decode = performance.now() - started;
  return new ImageData(pixels, width, height);
}

async function makePreview({ file, maxSide, quality }: HeicPreviewRequest): Promise<HeicPreviewMessage> {
  if (typeof OffscreenCanvas === 'undefined') throw new PreviewError('unavailable', 'This browser has no OffscreenCanvas');
  const timings = { load: 0, decode: 0, scale: 0 };
  let started = performance.now();
  const native = await decodeNatively(file);
  const source = native ?? (await decodeWithLibHeif(file, timings));
  if (native) timings.decode = performance.now() - started;

  stage('scaling');
  started = performance.now();
  const size = previewSize(source.width, source.height, maxSide);
  // Scaled while it is made into a bitmap: the full-size copy is never drawn.
  const scaled = await createImageBitmap(source, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  native?.close();
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  if (!context) throw new PreviewError('unavailable', 'No 2D canvas in this worker');
  // JPEG has no transparency: a transparent HEIC (rare) shows on white, as the server stores it.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(scaled, 0, 0);
  scaled.close();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
  timings.scale = performance.now() - started;
  return {
    type: 'done',
    blob,
    width: size.width,
    height: size.height,
    sourceWidth: source.width,
    sourceHeight: source.height,
    decoder: native ? 'browser' : 'libheif',
    timings,
  };
}

scope.onmessage = (event) => {
  makePreview(event.data).then(post, (error: unknown) => {
    const reason = error instanceof PreviewError ? error.reason : 'unreadable';
    post({ type: 'error', reason, detail: error instanceof Error ? error.message : String(error) });
  });
};
