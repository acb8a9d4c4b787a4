import { describe, expect, it } from 'vitest';
import { photoImageAlt, photoLabel } from './photo-label';

const photo = { id: 4, originalName: 'IMG_4.jpg', description: null, altText: null };

describe('photoImageAlt', () => {
  it('prefers the alt text, then the description, then the file name, then the id', () => {
    expect(photoImageAlt({ ...photo, altText: 'A crack in a mirror', description: 'Bad luck' })).toBe('A crack in a mirror');
    expect(photoImageAlt({ ...photo, altText: '  ', description: 'Bad luck' })).toBe('Bad luck');
    expect(photoImageAlt(photo)).toBe('IMG_4.jpg');
    expect(photoImageAlt({ ...photo, originalName: '' })).toBe('Photo 4');
  });

  it('keeps a long description whole, where the label shortens it', () => {
    const description = 'x'.repeat(120);
    expect(photoImageAlt({ ...photo, description })).toBe(description);
    expect(photoLabel({ ...photo, description })).toBe(`${'x'.repeat(77)}...`);
  });
});

describe('photoLabel', () => {
  it('names a photo by its description, not its alt text (button names stay short)', () => {
    const described = { ...photo, altText: 'A crack in a mirror', description: 'Bad luck' };
    const undescribed = { ...photo, altText: 'A crack in a mirror' };
    expect(photoLabel(described)).toBe('Bad luck');
    expect(photoLabel(undescribed)).toBe('IMG_4.jpg');
  });
});
