import { DESCRIPTION, UPLOAD, schemas } from '@snapcracks/http-contract';
import type { Accept } from 'react-dropzone';
import { formatCountOf } from '@/lib/format';
import { z } from '@/lib/zod';

/** SPEC §9: one file of at most 10 MB. */
export const MAX_UPLOAD_BYTES = UPLOAD.maxBytes;
/** An empty file (a phone's placeholder for a photo still in the cloud, say) is refused before it is sent. */
export const MIN_UPLOAD_BYTES = 1;
export const MAX_UPLOAD_FILES = UPLOAD.maxFiles;
export const PHOTO_DESCRIPTION_MAX_LENGTH = DESCRIPTION.maxLength;

/** The types SPEC §5 accepts. Extensions are listed too: browsers often give HEIC files no MIME type. */
export const ACCEPTED_PHOTO_TYPES: Accept = Object.fromEntries(Object.entries(UPLOAD.types).map(([type, extensions]) => [type, [...extensions]]));

/** SPEC §5's description of what the drop zone accepts. */
export const UPLOAD_FILE_RULE = UPLOAD.refused;

/** The accepted types as people know them (the file's extension), not as MIME types. */
export const ACCEPTED_TYPES_LABEL = 'JPG, PNG, HEIC or WebP';

/** A size limit in the unit people use: "10 MB", "500 KB", "1 byte". */
export function formatByteLimit(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 * 1024 * 1024, 'GB'],
    [1024 * 1024, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : Number(value.toFixed(1))} ${unit}`;
    }
  }
  return formatCountOf(bytes, 'byte');
}

export interface FileLimits {
  maxSize: number;
  minSize: number;
  maxFiles: number;
}

const UPLOAD_LIMITS: FileLimits = { maxSize: MAX_UPLOAD_BYTES, minSize: MIN_UPLOAD_BYTES, maxFiles: MAX_UPLOAD_FILES };

/**
 * The words for a file the drop zone refused (SPEC §5 fixes how each starts: "File type must be …", "File is
 * larger than …", "File is smaller than …", "Too many files"), from react-dropzone's error code; an unknown code
 * keeps the library's own message.
 */
export function fileProblemMessage(code: string, fallback: string, limits: FileLimits = UPLOAD_LIMITS): string {
  switch (code) {
    case 'file-invalid-type':
      return `File type must be ${ACCEPTED_TYPES_LABEL}`;
    case 'file-too-large':
      return `File is larger than ${formatByteLimit(limits.maxSize)}`;
    case 'file-too-small':
      return limits.minSize <= 1 ? 'File is smaller than 1 byte (it is empty)' : `File is smaller than ${formatByteLimit(limits.minSize)}`;
    case 'too-many-files':
      return `Too many files: choose ${limits.maxFiles === 1 ? 'one photo' : `up to ${formatCountOf(limits.maxFiles, 'photo')}`} at a time`;
    default:
      return fallback;
  }
}

/** HEIC/HEIF photos (iPhone): most browsers cannot show them, so their preview is decoded in a worker. */
export function isHeicFile(file: File): boolean {
  return /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The text fields of the upload form (SPEC §5): an optional description and alt text, and the required terms box. */
export const uploadFormSchema = z.object({
  description: schemas.uploadDescription,
  altText: schemas.altTextInput,
  agreeToTerms: z.boolean().refine((value) => value, { message: UPLOAD.termsRequired }),
});

export type UploadFormInput = z.input<typeof uploadFormSchema>;
export type UploadFormValues = z.output<typeof uploadFormSchema>;
