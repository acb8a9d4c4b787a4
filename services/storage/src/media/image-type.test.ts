import { describe, expect, it } from 'vitest';
import { sniffImageType } from '@snapcracks/kit';
import { fixture } from './test-images.js';

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const box = Buffer.alloc(8 + brands.length);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(brands, 8, 'latin1');
  return box;
}

describe('sniffImageType', () => {
  it('recognises the accepted formats by their bytes', () => {
    expect(sniffImageType(fixture('rotated-gps.jpg'))).toBe('image/jpeg');
    expect(sniffImageType(fixture('photo.png'))).toBe('image/png');
    expect(sniffImageType(fixture('photo.webp'))).toBe('image/webp');
    expect(sniffImageType(fixture('photo.heic'))).toBe('image/heic');
  });

  it('refuses HTML and PDF files named .jpg', () => {
    expect(sniffImageType(fixture('html.jpg'))).toBeNull();
    expect(sniffImageType(fixture('pdf.jpg'))).toBeNull();
  });

  it('tells HEIC from generic HEIF and refuses AVIF', () => {
    expect(sniffImageType(ftyp('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(ftyp('mif1', 'heix'))).toBe('image/heic');
    expect(sniffImageType(ftyp('heis'))).toBe('image/heic');
    expect(sniffImageType(ftyp('mif1', 'miaf'))).toBe('image/heif');
    expect(sniffImageType(ftyp('msf1'))).toBe('image/heif');
    expect(sniffImageType(ftyp('avif', 'mif1', 'miaf'))).toBeNull();
    expect(sniffImageType(ftyp('isom', 'mp41'))).toBeNull();
  });

  it('refuses empty, short and look-alike inputs', () => {
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(Uint8Array.of(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});
