import { imageAltText } from '@/components/photo/photo-labels';
import type { UserPhoto } from '@/lib/types';

/** A short human name for a photo (headings, button names): its description, else its original file name. */
export function photoLabel(photo: Pick<UserPhoto, 'description' | 'originalName' | 'id'>): string {
  const description = photo.description?.trim();
  if (description) return description.length > 80 ? `${description.slice(0, 77)}...` : description;
  return fileLabel(photo);
}

function fileLabel(photo: Pick<UserPhoto, 'originalName' | 'id'>): string {
  return photo.originalName?.trim() || `Photo ${photo.id}`;
}

/** The `alt` of an owner's or admin's image of a photo: its alt text, else its whole description, else its file name. */
export function photoImageAlt(photo: Pick<UserPhoto, 'altText' | 'description' | 'originalName' | 'id'>): string {
  return imageAltText(photo, fileLabel(photo));
}
