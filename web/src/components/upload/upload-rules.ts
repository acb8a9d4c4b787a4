import type { Accept } from 'react-dropzone';
import { z } from '@/lib/zod';

/** SPEC §9: one file of at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const PHOTO_DESCRIPTION_MAX_LENGTH = 500;

/** The types SPEC §5 accepts. Extensions are listed too: browsers often give HEIC files no MIME type. */
export const ACCEPTED_PHOTO_TYPES: Accept = {
  'image/jpeg': ['.jpeg', '.jpg'],
  'image/png': ['.png'],
  'image/heic': ['.heic'],
  'image/heif': ['.heif'],
  'image/webp': ['.webp'],
};

/** SPEC §5's description of what the drop zone accepts. */
export const UPLOAD_FILE_RULE = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';

/** HEIC/HEIF photos (iPhone) cannot be shown by most browsers, so they get no preview. */
export function isHeicFile(file: File): boolean {
  return /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The text fields of the upload form (SPEC §5): an optional description and the required terms box. */
export const uploadFormSchema = z.object({
  description: z
    .string()
    .trim()
    .max(PHOTO_DESCRIPTION_MAX_LENGTH, 'Description must be 500 characters or less'),
  agreeToTerms: z.boolean().refine((value) => value, { message: 'You must agree to the terms of service' }),
});

export type UploadFormInput = z.input<typeof uploadFormSchema>;
export type UploadFormValues = z.output<typeof uploadFormSchema>;
