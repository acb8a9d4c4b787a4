import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_TYPES_LABEL,
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_RULE,
  fileProblemMessage,
  formatByteLimit,
  isHeicFile,
} from './upload-rules';

describe('file problem messages (SPEC §5: "File type must be …", "File is larger than …", …)', () => {
  it('names the accepted types as people know them, not as MIME types', () => {
    expect(ACCEPTED_TYPES_LABEL).toBe('JPG, PNG, HEIC or WebP');
    expect(fileProblemMessage('file-invalid-type', 'File type must be image/jpeg, .jpeg, .jpg, image/png')).toBe(
      'File type must be JPG, PNG, HEIC or WebP',
    );
  });

  it('gives sizes in MB and KB, not bytes', () => {
    expect(fileProblemMessage('file-too-large', 'File is larger than 10485760 bytes')).toBe('File is larger than 10 MB');
    expect(fileProblemMessage('file-too-large', '', { maxSize: 512 * 1024, minSize: 1, maxFiles: 1 })).toBe('File is larger than 512 KB');
    expect(fileProblemMessage('file-too-small', '', { maxSize: MAX_UPLOAD_BYTES, minSize: 2048, maxFiles: 1 })).toBe(
      'File is smaller than 2 KB',
    );
  });

  it('says an empty file is empty', () => {
    expect(fileProblemMessage('file-too-small', 'File is smaller than 1 bytes')).toBe('File is smaller than 1 byte (it is empty)');
  });

  it('says how many files may be chosen at once, in the right number', () => {
    expect(fileProblemMessage('too-many-files', 'Too many files')).toBe('Too many files: choose one photo at a time');
    expect(fileProblemMessage('too-many-files', 'Too many files', { maxSize: MAX_UPLOAD_BYTES, minSize: 1, maxFiles: 3 })).toBe(
      'Too many files: choose up to 3 photos at a time',
    );
  });

  it("keeps the library's message for a problem it has no words for", () => {
    expect(fileProblemMessage('custom-validator', 'Something else')).toBe('Something else');
  });

  it("keeps the spec's rule text as it is", () => {
    expect(UPLOAD_FILE_RULE).toBe('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
  });
});

describe('formatByteLimit', () => {
  it.each([
    [10 * 1024 * 1024, '10 MB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
    [2 * 1024 * 1024 * 1024, '2 GB'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1000, '1,000 bytes'],
    [1, '1 byte'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatByteLimit(bytes)).toBe(text);
  });
});

describe('isHeicFile', () => {
  it('knows HEIC and HEIF by type or by extension (browsers often give them no type)', () => {
    expect(isHeicFile(new File([''], 'IMG_0001.HEIC', { type: '' }))).toBe(true);
    expect(isHeicFile(new File([''], 'photo', { type: 'image/heif' }))).toBe(true);
    expect(isHeicFile(new File([''], 'photo.heif', { type: '' }))).toBe(true);
    expect(isHeicFile(new File([''], 'PXL_20251103_142233517.jpg', { type: 'image/jpeg' }))).toBe(false);
  });
});
