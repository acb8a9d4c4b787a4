import type { UserPhoto } from '@/lib/types';

/** A short human name for a photo: its description, else its original file name. */
export function photoLabel(photo: Pick<UserPhoto, 'description' | 'originalName' | 'id'>): string {
  const description = photo.description?.trim();
  if (description) return description.length > 80 ? `${description.slice(0, 77)}...` : description;
  return photo.originalName?.trim() || `Photo ${photo.id}`;
}
