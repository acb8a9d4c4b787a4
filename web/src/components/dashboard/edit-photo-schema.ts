import { DESCRIPTION, schemas } from '@snapcracks/http-contract';
import type { z } from '@/lib/zod';

export const PHOTO_DESCRIPTION_MAX_LENGTH = DESCRIPTION.maxLength;

/** SPEC §5 "Photo description edit": the body PATCH /api/photos/{id} takes. */
export const editPhotoSchema = schemas.descriptionEdit;

export type EditPhotoValues = z.infer<typeof editPhotoSchema>;
