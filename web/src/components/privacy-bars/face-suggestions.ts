import { api, ApiError } from '@/lib/api';
import type { PrivacyBar } from '@/lib/types';
import { z } from '@/lib/zod';

/*
 * "Suggest bars over faces" on /upload: the photo has no id before it is uploaded, so a copy of the chosen file
 * goes to the server (api.photos.suggestFaceBars), where the storage service's face detector (model and all on
 * the server; nothing extra for the browser to download) answers bars in the editor's percentages.
 */

/**
 * The copy is scaled to this longest side before it is sent: the detector works on 1,280 px anyway, and a
 * phone's 12 MP photo (several MB) becomes a JPEG of a few hundred kB, well inside the route's 3 MB.
 */
export const SUGGESTION_MAX_SIDE = 1600;
const SUGGESTION_JPEG_QUALITY = 0.85;

const suggestionsSchema = z.object({
  bars: z.array(z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })),
});

/**
 * The file as the browser shows it (turned upright by its EXIF orientation, like the preview and like storage
 * turns the stored photo), scaled to fit SUGGESTION_MAX_SIDE, as a JPEG. The bars' percentages then match the
 * preview the member draws on.
 */
export async function scaledCopy(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, SUGGESTION_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))), 'image/jpeg', SUGGESTION_JPEG_QUALITY),
    );
  } finally {
    bitmap.close();
  }
}

/** Bars over the faces in `file` (empty when there are none); an ApiError when the server refuses or fails. */
export async function suggestFaceBars(file: Blob, copy: (file: Blob) => Promise<Blob> = scaledCopy): Promise<PrivacyBar[]> {
  const answer = await api.photos.suggestFaceBars(await copy(file));
  return suggestionsSchema.parse(answer).bars;
}

/**
 * Bars over the faces of a photo already uploaded (the edit dialog): its owner fetches the unredacted original the
 * editor shows, then it goes the same way as a chosen file, so the bars' percentages match the editor's image.
 */
export async function suggestFaceBarsAt(imageUrl: string, copy: (file: Blob) => Promise<Blob> = scaledCopy): Promise<PrivacyBar[]> {
  return suggestFaceBars(await api.photos.file(imageUrl), copy);
}

/** What the toast says when suggestions could not be had (a 401 is handled before, by signing in again). */
export function suggestionFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 500) {
    return 'Face detection took too long or is busy. Please try again, or draw the bars yourself.';
  }
  if (error instanceof ApiError) return error.serverMessage('This photo could not be checked for faces.');
  return 'This photo could not be checked for faces. Please try again, or draw the bars yourself.';
}
