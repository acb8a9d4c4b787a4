import { DESCRIPTION, schemas } from '@snapcracks/http-contract';
import type { z } from '@/lib/zod';

export const PHOTO_DESCRIPTION_MAX_LENGTH = DESCRIPTION.maxLength;

/** SPEC §5 "Photo description edit": the body PATCH /api/photos/{id} takes (the description, and the alt text). */
export const editPhotoSchema = schemas.descriptionEdit;

export type EditPhotoInput = z.input<typeof editPhotoSchema>;
export type EditPhotoValues = z.output<typeof editPhotoSchema>;
