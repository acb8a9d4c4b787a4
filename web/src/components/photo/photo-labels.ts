import type { GalleryPhoto } from '@/lib/types';
import { getUploaderName } from '@/lib/user';

/** The uploader by the display-name rule; an anonymous one is `User {id}` (SPEC §3). */
export function photoUploaderName(photo: Pick<GalleryPhoto, 'user' | 'userId'>): string {
  return getUploaderName(photo.user, photo.userId);
}

/**
 * The words an image of a photo is shown with (its `alt`): the owner's alt text, else its description, else `fallback`.
 * Never shortened: a screen reader reads it whole. `altText` is optional for shapes that do not carry it yet.
 */
export function imageAltText(photo: { altText?: string | null; description: string | null }, fallback: string): string {
  return photo.altText?.trim() || photo.description?.trim() || fallback;
}

/** The image's text alternative: its alt text, else its description, else who shared it. */
export function photoAlt(photo: Pick<GalleryPhoto, 'user' | 'userId' | 'description' | 'altText'>): string {
  return imageAltText(photo, `Photo by ${photoUploaderName(photo)}`);
}
