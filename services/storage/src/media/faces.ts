import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { UnsupportedImageError } from './errors.js';
import type { FaceBox } from './face-bars.js';

// Face counting for avatars, with face-api's tiny face detector (its 190 kB weights ship inside the npm package)
// on TensorFlow.js' WebAssembly backend (its .wasm files ship inside the npm package too; nothing is downloaded).
// It runs only on the dedicated face worker thread (see ImageProcessor): the WebAssembly heap (~200 MB) is paid
// once, by one thread, and given back when that thread exits.

const require = createRequire(import.meta.url);

type FaceApi = typeof import('@vladmandic/face-api');
type Tf = typeof import('@tensorflow/tfjs');

/** The detector's input side: avatars are 256 px, so 256 needs no upscaling (a multiple of 32, as it requires). */
const INPUT_SIZE = 256;
const SCORE_THRESHOLD = 0.5;

let ready: Promise<{ faceapi: FaceApi; tf: Tf }> | undefined;

function load(): Promise<{ faceapi: FaceApi; tf: Tf }> {
  ready ??= (async () => {
    const tf = require('@tensorflow/tfjs') as Tf;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm');
    // Plain file paths, read by Emscripten from disk (`false`: not through fetch, which cannot read files).
    wasm.setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`, false);
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    await tf.setBackend('wasm');
    await tf.ready();
    await faceapi.nets.tinyFaceDetector.loadFromDisk(join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'));
    return { faceapi, tf };
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** How many faces the (already cleaned, small) image shows. */
export async function countFaces(image: Buffer): Promise<number> {
  return (await detect(sharp(image), INPUT_SIZE)).length;
}

/**
 * Suggestions scan a photo, not a 256 px avatar: faces there are often a few percent of the picture, so the
 * detector gets a larger input (slower, about 2–4× an avatar's detection, but it finds small faces), and the
 * photo is first scaled to fit SUGGESTION_MAX_SIDE, plenty for that input and cheap to hand over as raw pixels.
 */
const SUGGESTION_INPUT_SIZE = 608;
const SUGGESTION_MAX_SIDE = 1280;

/** The faces in a photo, as boxes in fractions (0–1) of the upright image. */
export async function detectFaceBoxes(image: Buffer, maxInputPixels: number): Promise<FaceBox[]> {
  // Turned upright like every stored photo (and like the browser shows the file), so boxes match the preview.
  const upright = sharp(image, { limitInputPixels: maxInputPixels, failOn: 'error' })
    .rotate()
    .resize({ width: SUGGESTION_MAX_SIDE, height: SUGGESTION_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  return detect(upright, SUGGESTION_INPUT_SIZE);
}

async function detect(image: Sharp, inputSize: number): Promise<FaceBox[]> {
  const { faceapi, tf } = await load();
  const { data, info } = await image
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new UnsupportedImageError({ cause: error });
    });
  const tensor = tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), [info.height, info.width, 3], 'int32');
  try {
    const faces = await faceapi.detectAllFaces(tensor as never, new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: SCORE_THRESHOLD }));
    return faces.map(({ box }) => ({ x: box.x / info.width, y: box.y / info.height, width: box.width / info.width, height: box.height / info.height }));
  } finally {
    tensor.dispose();
  }
}
