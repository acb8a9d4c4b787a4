import { describe, expect, it } from 'vitest';
import { previewSize } from './heic-preview-protocol';

describe('previewSize', () => {
  it('scales a phone photo to the longest side, keeping its shape', () => {
    expect(previewSize(4032, 3024, 2048)).toEqual({ width: 2048, height: 1536 });
    expect(previewSize(3024, 4032, 2048)).toEqual({ width: 1536, height: 2048 });
    expect(previewSize(5712, 4284, 2048)).toEqual({ width: 2048, height: 1536 });
  });

  it('never enlarges a small photo, and never makes a side of zero', () => {
    expect(previewSize(320, 240, 2048)).toEqual({ width: 320, height: 240 });
    expect(previewSize(20000, 10, 2048)).toEqual({ width: 2048, height: 1 });
  });
});
