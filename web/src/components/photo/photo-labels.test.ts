import { describe, expect, it } from 'vitest';
import { imageAltText, photoAlt } from './photo-labels';
import { makeGalleryPhoto } from './test-fixtures';

describe('photoAlt', () => {
  it('prefers the alt text, then the description, then who shared the photo', () => {
    expect(photoAlt(makeGalleryPhoto({ altText: 'A zigzag crack across a brick wall', description: 'Look at this!' }))).toBe(
      'A zigzag crack across a brick wall',
    );
    expect(photoAlt(makeGalleryPhoto({ altText: null, description: 'Look at this!' }))).toBe('Look at this!');
    expect(photoAlt(makeGalleryPhoto({ altText: null, description: null }))).toBe('Photo by Ada L');
  });

  it('skips blank text and trims what it uses', () => {
    expect(photoAlt(makeGalleryPhoto({ altText: '   ', description: '  Look at this!  ' }))).toBe('Look at this!');
    expect(photoAlt(makeGalleryPhoto({ altText: ' ', description: ' ' }))).toBe('Photo by Ada L');
    expect(photoAlt(makeGalleryPhoto({ altText: '  A crack  ' }))).toBe('A crack');
  });

  it('never shortens the alt text', () => {
    const long = 'A crack '.repeat(120).trim();
    expect(photoAlt(makeGalleryPhoto({ altText: long }))).toBe(long);
  });
});

describe('imageAltText', () => {
  it('takes shapes without alt text, and uses the fallback last', () => {
    expect(imageAltText({ description: 'Top crack' }, 'Top Rated Photo')).toBe('Top crack');
    expect(imageAltText({ description: null }, 'Top Rated Photo')).toBe('Top Rated Photo');
    expect(imageAltText({ altText: 'A crack in ice', description: null }, 'fallback')).toBe('A crack in ice');
  });
});
