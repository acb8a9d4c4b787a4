import { describe, expect, it } from 'vitest';
import {
  ADMIN_CARD_SIZES,
  ADMIN_GRID,
  DASHBOARD_CARD_SIZES,
  DASHBOARD_GRID,
  GALLERY_CARD_SIZES,
  GALLERY_GRID,
  cardImage,
  cardSizes,
  derivativeWidth,
  photoImageSources,
  shareOfCard,
  type CardGrid,
  type PhotoImages,
} from './image-sources';
import type { ImageSource } from './retrying-image';

const photo = (width: number, height: number): PhotoImages => ({
  width,
  height,
  thumbnailUrl: '/api/uploads/a.webp?size=thumb&v=1',
  mediumUrl: '/api/uploads/a.webp?size=medium&v=1',
  displayUrl: '/api/uploads/a.webp?size=display&v=1',
});
const LANDSCAPE = photo(4000, 3000);
const PORTRAIT = photo(3000, 4000);
const WIDE = photo(4000, 2250);
const TALL = photo(1125, 2436);
const sizeOf = (url: string) => new URL(url, 'http://x').searchParams.get('size');

describe('photoImageSources', () => {
  it('offers the thumbnail, medium and display images with the width each really has', () => {
    expect(photoImageSources(LANDSCAPE)).toEqual([
      { url: LANDSCAPE.thumbnailUrl, width: 480 },
      { url: LANDSCAPE.mediumUrl, width: 960 },
      { url: LANDSCAPE.displayUrl, width: 2048 },
    ]);
    // Bounded on the long edge: a portrait's images are three quarters as wide.
    expect(photoImageSources(PORTRAIT).map((s) => s.width)).toEqual([360, 720, 1536]);
    expect(photoImageSources(photo(3000, 1000)).map((s) => s.width)).toEqual([480, 960, 2048]);
    expect(photoImageSources(photo(600, 2400)).map((s) => s.width)).toEqual([120, 240, 512]);
  });

  it('leaves out an image no wider than the one before it: storage never enlarges', () => {
    expect(photoImageSources(photo(1600, 1200))).toEqual([
      { url: LANDSCAPE.thumbnailUrl, width: 480 },
      { url: LANDSCAPE.mediumUrl, width: 960 },
      { url: LANDSCAPE.displayUrl, width: 1600 },
    ]);
    expect(photoImageSources(photo(800, 600))).toEqual([
      { url: LANDSCAPE.thumbnailUrl, width: 480 },
      { url: LANDSCAPE.mediumUrl, width: 800 },
    ]);
    expect(photoImageSources(photo(320, 240))).toEqual([{ url: LANDSCAPE.thumbnailUrl, width: 320 }]);
  });

  it('takes a photo of unknown size as a landscape', () => {
    expect(photoImageSources(photo(0, 0)).map((s) => s.width)).toEqual([480, 960, 2048]);
    expect(derivativeWidth({ width: 0, height: 0 }, 960)).toBe(960);
  });

  it('rounds as storage does', () => {
    expect(derivativeWidth({ width: 3000, height: 1000 }, 480)).toBe(480);
    expect(derivativeWidth({ width: 1000, height: 3000 }, 2048)).toBe(683);
    expect(derivativeWidth({ width: 1, height: 5000 }, 480)).toBe(1);
  });
});

describe('the grids’ sizes', () => {
  it('give each card’s width: the container (1280 px), its padding, the gap and the columns', () => {
    expect(GALLERY_CARD_SIZES).toBe(
      '(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), ' +
        '(min-resolution: 2.9dppx) 236px, (min-resolution: 2.6dppx) 260px, (min-resolution: 1.9dppx) 355px, calc(100vw - 32px)',
    );
    expect(DASHBOARD_CARD_SIZES).toBe(GALLERY_CARD_SIZES);
    expect(ADMIN_CARD_SIZES).toBe(
      '(min-width: 1280px) 395px, (min-width: 1024px) calc((100vw - 80px) / 2), (min-width: 640px) calc((100vw - 64px) / 2), ' +
        '(min-resolution: 2.9dppx) 236px, (min-resolution: 2.6dppx) 260px, (min-resolution: 1.9dppx) 355px, calc(100vw - 32px)',
    );
  });

  it('give a contained photo the width its picture takes', () => {
    expect(shareOfCard(LANDSCAPE, 4 / 3)).toBe(1);
    expect(shareOfCard(WIDE, 4 / 3)).toBe(1);
    expect(shareOfCard(PORTRAIT, 4 / 3)).toBe(0.5625);
    expect(shareOfCard(photo(0, 0), 4 / 3)).toBe(1);
    // In one column the gallery's frame takes the photo's shape, within 3:4 and 16:9.
    expect(shareOfCard(PORTRAIT, { min: 3 / 4, max: 16 / 9 })).toBe(1);
    expect(shareOfCard(TALL, { min: 3 / 4, max: 16 / 9 })).toBeCloseTo(0.6158, 4);
    expect(cardSizes(GALLERY_GRID, PORTRAIT)).toBe(
      '(min-width: 1280px) 219px, (min-width: 1024px) calc((100vw - 112px) * 0.1875), (min-width: 640px) calc((100vw - 72px) * 0.2813), ' +
        '(min-resolution: 2.9dppx) 236px, (min-resolution: 2.6dppx) 260px, (min-resolution: 1.9dppx) 355px, calc(100vw - 32px)',
    );
    expect(cardSizes(DASHBOARD_GRID, PORTRAIT)).toBe(
      '(min-width: 1280px) 219px, (min-width: 1024px) calc((100vw - 112px) * 0.1875), (min-width: 640px) calc((100vw - 72px) * 0.2813), ' +
        '(min-resolution: 2.9dppx) 133px, (min-resolution: 2.6dppx) 146px, (min-resolution: 1.9dppx) 200px, calc((100vw - 32px) * 0.5625)',
    );
    expect(cardSizes(GALLERY_GRID, LANDSCAPE)).toBe(GALLERY_CARD_SIZES);
  });

  it('are what a card passes to RetryingImage', () => {
    expect(cardImage(PORTRAIT, ADMIN_GRID)).toEqual({ src: PORTRAIT.mediumUrl, sources: photoImageSources(PORTRAIT), sizes: cardSizes(ADMIN_GRID, PORTRAIT) });
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Which image browsers load, worked out as they do: the first `sizes` entry whose media condition holds gives the slot
// width; each candidate's density is its width over the slot. Safari and Firefox take the first candidate at least as
// dense as the screen (the largest if none is); Chrome moves to the next one only when the screen's density reaches the
// geometric mean of the two (HTMLSrcsetParser's selection).

interface Screen {
  width: number;
  dpr: number;
}

function slotWidth(sizes: string, screen: Screen): number {
  for (const entry of sizes.split(/,\s*(?![^()]*\))/)) {
    const match = /^((?:\([^)]*\)(?:\s+and\s+)?)*)\s*(.+)$/.exec(entry.trim())!;
    const conditions = [...match[1]!.matchAll(/\((min-width|min-resolution):\s*([\d.]+)(px|dppx)\)/g)];
    const holds = conditions.every(([, feature, value]) => (feature === 'min-width' ? screen.width >= Number(value) : screen.dpr >= Number(value)));
    if (!holds) continue;
    const value = match[2]!;
    const px = /^([\d.]+)px$/.exec(value);
    if (px) return Number(px[1]);
    const fluid = /^calc\((?:\()?100vw - ([\d.]+)px(?:\))?(?: (\/|\*) ([\d.]+))?\)$/.exec(value);
    if (!fluid) throw new Error(`cannot evaluate ${value}`);
    const base = screen.width - Number(fluid[1]);
    return fluid[2] === '/' ? base / Number(fluid[3]) : fluid[2] === '*' ? base * Number(fluid[3]) : base;
  }
  throw new Error(`no sizes entry for ${JSON.stringify(screen)}`);
}

function picks(sources: ImageSource[], sizes: string, screen: Screen, engine: 'chrome' | 'safari'): ImageSource {
  const slot = slotWidth(sizes, screen);
  const density = (source: ImageSource) => source.width / slot;
  if (engine === 'safari') return sources.find((source) => density(source) >= screen.dpr) ?? sources.at(-1)!;
  for (let i = 0; i < sources.length - 1; i += 1) {
    const next = density(sources[i + 1]!);
    if (next < screen.dpr) continue;
    const current = density(sources[i]!);
    return (screen.dpr <= 1 && screen.dpr > current) || screen.dpr >= Math.sqrt(current * next) ? sources[i + 1]! : sources[i]!;
  }
  return sources.at(-1)!;
}

const pickFor = (grid: CardGrid, image: PhotoImages, screen: Screen, engine: 'chrome' | 'safari') =>
  sizeOf(picks(photoImageSources(image), cardSizes(grid, image), screen, engine).url);

describe('what browsers load for a card', () => {
  const engines = ['chrome', 'safari'] as const;

  // iPhones (every browser there is WebKit), and Android phones (Chrome; Firefox decides as Safari does).
  const phones = {
    safari: [
      { width: 320, dpr: 2 },
      { width: 375, dpr: 2 },
      { width: 414, dpr: 2 },
      { width: 390, dpr: 3 },
      { width: 430, dpr: 3 },
      { width: 412, dpr: 2.625 },
      { width: 393, dpr: 2.75 },
    ],
    chrome: [
      { width: 360, dpr: 3 },
      { width: 412, dpr: 2.625 },
      { width: 393, dpr: 2.75 },
      { width: 412, dpr: 3.5 },
      { width: 360, dpr: 2 },
      { width: 390, dpr: 3 },
      { width: 430, dpr: 3 },
      { width: 400, dpr: 2.5 },
    ],
  };

  it.each(engines)('%s: the medium image on phones at 2× and 3×, landscape or portrait', (engine) => {
    for (const screen of phones[engine]) {
      for (const image of [LANDSCAPE, PORTRAIT, WIDE, TALL]) {
        expect(pickFor(GALLERY_GRID, image, screen, engine), `${JSON.stringify(screen)} ${image.width}×${image.height}`).toBe('medium');
      }
    }
  });

  it.each(engines)('%s: a landscape’s medium image at 1280 px and 2×, never the display image in a grid', (engine) => {
    expect(pickFor(GALLERY_GRID, LANDSCAPE, { width: 1280, dpr: 2 }, engine)).toBe('medium');
    expect(pickFor(GALLERY_GRID, WIDE, { width: 1280, dpr: 2 }, engine)).toBe('medium');
    expect(pickFor(ADMIN_GRID, LANDSCAPE, { width: 1280, dpr: 2 }, engine)).toBe('medium');
    for (const grid of [GALLERY_GRID, DASHBOARD_GRID, ADMIN_GRID]) {
      for (const image of [LANDSCAPE, PORTRAIT, WIDE, TALL]) {
        for (const screen of [
          { width: 1280, dpr: 2 },
          { width: 1440, dpr: 2 },
          { width: 1024, dpr: 2 },
          { width: 768, dpr: 2 },
          { width: 1920, dpr: 1.5 },
        ]) {
          expect(pickFor(grid, image, screen, engine), `${JSON.stringify(screen)} ${image.width}×${image.height}`).not.toBe('display');
        }
      }
    }
  });

  it.each(engines)('%s: a portrait in a 4:3 card at 1280 px and 2× gets no more than its picture needs', (engine) => {
    // Its picture is 219 × 292 CSS px (438 device px wide): Chrome takes the 360 px thumbnail (1.2× short), Safari the medium image.
    expect(pickFor(GALLERY_GRID, PORTRAIT, { width: 1280, dpr: 2 }, engine)).toBe(engine === 'chrome' ? 'thumb' : 'medium');
  });

  it.each(engines)('%s: the thumbnail on ordinary screens', (engine) => {
    for (const image of [LANDSCAPE, PORTRAIT]) {
      expect(pickFor(GALLERY_GRID, image, { width: 1280, dpr: 1 }, engine)).toBe('thumb');
      expect(pickFor(ADMIN_GRID, image, { width: 1920, dpr: 1 }, engine)).toBe('thumb');
    }
  });

  // The worst case is a portrait on a 430 px phone at 3×: its medium image is 720 px wide where the card shows 1,194
  // device px (1.66×); the display image would cost about five times the bytes.
  it('never picks an image more than 1.7× short of the pixels a card shows', () => {
    for (const engine of engines) {
      for (const image of [LANDSCAPE, PORTRAIT, WIDE, TALL]) {
        for (const screen of [
          { width: 390, dpr: 3 },
          { width: 430, dpr: 3 },
          { width: 375, dpr: 2 },
          { width: 1280, dpr: 2 },
          { width: 1280, dpr: 1 },
          { width: 768, dpr: 2 },
        ]) {
          const sources = photoImageSources(image);
          const chosen = picks(sources, cardSizes(GALLERY_GRID, image), screen, engine);
          // The picture's real width on screen: the honest sizes (no phone cap) times the density.
          const honest = cardSizes({ bands: GALLERY_GRID.bands.filter((band) => !band.media?.includes('resolution')) }, image);
          const needed = slotWidth(honest, screen) * screen.dpr;
          expect(needed / chosen.width, `${engine} ${JSON.stringify(screen)} ${image.width}×${image.height}`).toBeLessThanOrEqual(1.7);
        }
      }
    }
  });
});
