import type { FileRejection } from 'react-dropzone';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DropzoneErrors, rejectionMessages } from './photo-dropzone';

const rejection = (name: string, ...errors: Array<[string, string]>): FileRejection => ({
  file: new File(['x'], name),
  errors: errors.map(([code, message]) => ({ code, message })),
});

describe('rejectionMessages', () => {
  it("words react-dropzone's refusals for people, each with the file it is about", () => {
    expect(
      rejectionMessages([
        rejection('funny.gif', ['file-invalid-type', 'File type must be image/jpeg,.jpeg,.jpg,image/png,…']),
        rejection('PXL_20251103_142233517.jpg', ['file-too-large', 'File is larger than 10485760 bytes']),
      ]),
    ).toEqual([
      { fileName: 'funny.gif', message: 'File type must be JPG, PNG, HEIC or WebP' },
      { fileName: 'PXL_20251103_142233517.jpg', message: 'File is larger than 10 MB' },
    ]);
  });

  it('says "too many files" once for a drop of several, and keeps each distinct problem once', () => {
    expect(
      rejectionMessages([
        rejection('a.jpg', ['too-many-files', 'Too many files']),
        rejection('b.gif', ['too-many-files', 'Too many files'], ['file-invalid-type', 'File type must be …']),
        rejection('b.gif', ['file-invalid-type', 'File type must be …']),
      ]),
    ).toEqual([
      { message: 'Too many files: choose one photo at a time' },
      { fileName: 'b.gif', message: 'File type must be JPG, PNG, HEIC or WebP' },
    ]);
  });
});

describe('DropzoneErrors', () => {
  it("shows the spec's rule, then each problem with its file name, which may wrap", () => {
    render(
      <DropzoneErrors
        errors={[
          { fileName: 'IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC', message: 'File is larger than 10 MB' },
          { message: 'Too many files: choose one photo at a time' },
        ]}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC: File is larger than 10 MB');
    // The long name can break after its separators rather than run off a phone's screen.
    expect(items[0]!.querySelectorAll('wbr').length).toBeGreaterThan(5);
    expect(items[1]).toHaveTextContent(/^Too many files: choose one photo at a time$/);
  });

  it('shows nothing without problems', () => {
    const { container } = render(<DropzoneErrors errors={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
