import { z } from '@/lib/zod';

export const PHOTO_DESCRIPTION_MAX_LENGTH = 500;

/** SPEC §5 "Photo description edit": required, at most 500 characters. */
export const editPhotoSchema = z.object({
  description: z
    .string()
    .trim()
    .min(1, 'Description is required')
    .max(PHOTO_DESCRIPTION_MAX_LENGTH, `Description must be ${PHOTO_DESCRIPTION_MAX_LENGTH} characters or less`),
});

export type EditPhotoValues = z.infer<typeof editPhotoSchema>;
