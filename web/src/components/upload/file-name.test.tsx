import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FileName, fileNameParts } from './file-name';

describe('fileNameParts', () => {
  it('cuts after separators and before the extension', () => {
    expect(fileNameParts('PXL_20251103_142233517.jpg')).toEqual(['PXL_', '20251103_', '142233517', '.jpg']);
    expect(fileNameParts('IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC')).toEqual([
      'IMG_',
      '20251103_',
      '142233_',
      'some_',
      'long_',
      'name_',
      'iphone_',
      '13_',
      'pro_',
      'max',
      '.HEIC',
    ]);
    expect(fileNameParts('crack in the wall-2.final.png')).toEqual(['crack ', 'in ', 'the ', 'wall-', '2.final', '.png']);
  });

  it('leaves names without separators whole', () => {
    expect(fileNameParts('wall.jpg')).toEqual(['wall', '.jpg']);
    expect(fileNameParts('README')).toEqual(['README']);
    expect(fileNameParts('.heic')).toEqual(['.heic']);
    expect(fileNameParts('')).toEqual([]);
  });
});

describe('FileName', () => {
  it('shows the whole name, with a break opportunity between its parts', () => {
    const name = 'IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC';
    const { container } = render(<FileName name={name} />);
    const span = container.firstElementChild!;
    // The text is the name itself: read whole by screen readers, found whole by search.
    expect(span.textContent).toBe(name);
    expect(span.querySelectorAll('wbr')).toHaveLength(10);
  });
});
