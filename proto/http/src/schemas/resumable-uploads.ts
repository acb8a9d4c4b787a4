import { z } from 'zod';
import { RESUMABLE_UPLOAD, UPLOAD } from '../rules.js';
import { altTextInput, uploadDescription } from './photos.js';

/** A resumable upload's id, as the creation's Location gave it: 32 hex digits. */
export const resumableUploadParams = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{32}$/, RESUMABLE_UPLOAD.notFound)
    .meta({ description: 'The upload id: the last part of the Location the creation answered.' }),
});

const tusResumable = z.literal(RESUMABLE_UPLOAD.tusVersion).meta({ description: 'The tus protocol version; a 412 answers any other.' });
const uploadOffset = z.string().regex(/^\d+$/).meta({ description: 'Bytes already stored before this chunk: the Upload-Offset the last answer gave.' });

/** POST: a new upload of a file of a known length, optionally with its first bytes (tus creation-with-upload). */
export const resumableUploadCreationHeaders = z.object({
  'tus-resumable': tusResumable,
  'upload-length': z
    .string()
    .regex(/^\d+$/)
    .meta({ description: `The file's length in bytes, at most ${UPLOAD.maxBytes} (deferred lengths are not supported).` }),
  'upload-metadata': z
    .string()
    .optional()
    .meta({ description: 'tus metadata: `filename` (the file\'s name, shown in the review) and `filetype`, each base64. The type is decided by the bytes.' }),
});

/** PATCH: the next bytes, from the offset the server has. */
export const resumableUploadChunkHeaders = z.object({
  'tus-resumable': tusResumable,
  'upload-offset': uploadOffset,
  'content-type': z.literal('application/offset+octet-stream'),
});

export const resumableUploadHeadHeaders = z.object({ 'tus-resumable': tusResumable });

/** What goes with the photo once its bytes are whole; each optional, as at POST /api/photos. */
export const resumableUploadFinish = z
  .object({
    description: uploadDescription.optional(),
    altText: altTextInput.optional().meta({ description: 'What the photo shows, for people who cannot see it.' }),
  })
  .meta({ id: 'ResumableUploadFinish' });
