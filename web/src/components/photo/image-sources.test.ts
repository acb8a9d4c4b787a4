import { describe, expect, it } from 'vitest';
import {
  ADMIN_CARD_SIZES,
  ADMIN_GRID,
  DASHBOARD_CARD_SIZES,
  viewerImageUrl,
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
        '(min-resolution: 2.9dppx) 200px, (min-resolution: 2.4dppx) 248px, (min-resolution: 1.9dppx) 300px, calc(100vw - 32px)',
    );
    expect(DASHBOARD_CARD_SIZES).toBe(GALLERY_CARD_SIZES);
    expect(ADMIN_CARD_SIZES).toBe(
      '(min-width: 1280px) 395px, (min-width: 1024px) calc((100vw - 80px) / 2), (min-width: 640px) calc((100vw - 64px) / 2), ' +
        '(min-resolution: 2.9dppx) 200px, (min-resolution: 2.4dppx) 248px, (min-resolution: 1.9dppx) 300px, calc(100vw - 32px)',
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
        '(min-resolution: 2.9dppx) 200px, (min-resolution: 2.4dppx) 248px, (min-resolution: 1.9dppx) 300px, calc(100vw - 32px)',
    );
    expect(cardSizes(DASHBOARD_GRID, PORTRAIT)).toBe(
      '(min-width: 1280px) 219px, (min-width: 1024px) calc((100vw - 112px) * 0.1875), (min-width: 640px) calc((100vw - 72px) * 0.2813), ' +
        '(min-resolution: 2.9dppx) 200px, (min-resolution: 2.4dppx) 248px, (min-resolution: 1.9dppx) 300px, calc((100vw - 32px) * 0.5625)',
    );
    // On phones, the width at which its medium image is as dense as the band's densest screen.
    expect(cardSizes(GALLERY_GRID, LANDSCAPE)).toBe(
      '(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), ' +
        '(min-resolution: 2.9dppx) 266px, (min-resolution: 2.4dppx) 331px, (min-resolution: 1.9dppx) 400px, calc(100vw - 32px)',
    );
  });

  it('are what a card passes to RetryingImage', () => {
    expect(cardImage(PORTRAIT, ADMIN_GRID)).toEqual({ src: PORTRAIT.mediumUrl, sources: photoImageSources(PORTRAIT), sizes: cardSizes(ADMIN_GRID, PORTRAIT) });
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Which image browsers load, worked out as they do: the first `sizes` entry whose media condition holds gives the slot
// width, each candidate's density is its width over the slot, and the browser takes the first candidate at least as
// dense as the screen, the largest when none is (Chromium 156 does so, as WebKit and Gecko do: `pnpm bench:images`
// shows it choosing by these sizes).

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

function picks(sources: ImageSource[], sizes: string, screen: Screen): ImageSource {
  const slot = slotWidth(sizes, screen);
  return sources.find((source) => source.width / slot >= screen.dpr) ?? sources.at(-1)!;
}

const pickFor = (grid: CardGrid, image: PhotoImages, screen: Screen) => sizeOf(picks(photoImageSources(image), cardSizes(grid, image), screen).url);

describe('what browsers load for a card', () => {
  const phones = [
    { width: 320, dpr: 2 },
    { width: 375, dpr: 2 },
    { width: 414, dpr: 2 },
    { width: 390, dpr: 3 },
    { width: 430, dpr: 3 },
    { width: 360, dpr: 3 },
    { width: 400, dpr: 2.5 },
    { width: 412, dpr: 2.625 },
    { width: 393, dpr: 2.75 },
    { width: 412, dpr: 3.5 },
  ];
  const shapes = [LANDSCAPE, PORTRAIT, WIDE, TALL, photo(3000, 3000), photo(0, 0)];

  it('the medium image on phones of density 2 to 3.5, whatever the photo’s shape', () => {
    for (const grid of [GALLERY_GRID, DASHBOARD_GRID, ADMIN_GRID]) {
      for (const screen of phones) {
        for (const image of shapes) expect(pickFor(grid, image, screen), `${JSON.stringify(screen)} ${image.width}×${image.height}`).toBe('medium');
      }
    }
  });

  it('the medium image at 1280 px and 2× (9 cards in about 1.3 MB), never the display image in a grid', () => {
    for (const grid of [GALLERY_GRID, DASHBOARD_GRID, ADMIN_GRID]) {
      for (const image of shapes) {
        expect(pickFor(grid, image, { width: 1280, dpr: 2 }), `${image.width}×${image.height}`).toBe('medium');
        for (const screen of [{ width: 1440, dpr: 2 }, { width: 1024, dpr: 2 }, { width: 768, dpr: 2 }, { width: 1920, dpr: 1.5 }, ...phones]) {
          expect(pickFor(grid, image, screen), `${JSON.stringify(screen)} ${image.width}×${image.height}`).not.toBe('display');
        }
      }
    }
  });

  it('the thumbnail on ordinary screens', () => {
    for (const image of [LANDSCAPE, PORTRAIT, WIDE]) {
      expect(pickFor(GALLERY_GRID, image, { width: 1280, dpr: 1 })).toBe('thumb');
      expect(pickFor(ADMIN_GRID, image, { width: 1920, dpr: 1 })).toBe('thumb');
      expect(pickFor(DASHBOARD_GRID, image, { width: 800, dpr: 1 })).toBe('thumb');
    }
  });

  it('a portrait’s images by the width its picture takes in a 4:3 card, not the card’s', () => {
    // At 1280 px and 1.5× its picture is 219 CSS px wide (329 device px): the 360 px thumbnail; the card's width would ask for 584.
    expect(pickFor(GALLERY_GRID, PORTRAIT, { width: 1280, dpr: 1.5 })).toBe('thumb');
    expect(sizeOf(picks(photoImageSources(PORTRAIT), GALLERY_CARD_SIZES, { width: 1280, dpr: 1.5 }).url)).toBe('medium');
  });

  // The worst case is a portrait on a 412 px phone at 3.5×: its medium image is 720 px wide where the card shows 1,330
  // device px (1.85×; 1.66× on a 430 px phone at 3×); the display image would cost about five times the bytes.
  it('never an image more than 1.9× short of the pixels a card shows', () => {
    const honest = (grid: CardGrid): CardGrid => ({ bands: grid.bands.filter((band) => !band.media?.includes('resolution')) });
    for (const grid of [GALLERY_GRID, DASHBOARD_GRID, ADMIN_GRID]) {
      for (const image of shapes) {
        for (const screen of [...phones, { width: 1280, dpr: 2 }, { width: 1280, dpr: 1 }, { width: 768, dpr: 2 }, { width: 1920, dpr: 1.5 }]) {
          const chosen = picks(photoImageSources(image), cardSizes(grid, image), screen);
          // The picture's real width on screen: the sizes without the phones' caps, times the density.
          const needed = slotWidth(cardSizes(honest(grid), image), screen) * screen.dpr;
          expect(needed / chosen.width, `${JSON.stringify(screen)} ${image.width}×${image.height}`).toBeLessThanOrEqual(1.9);
        }
      }
    }
  });
});

describe('viewerImageUrl', () => {
  const photo = (width: number, height: number) => ({
    width,
    height,
    thumbnailUrl: 'thumb',
    mediumUrl: 'medium',
    displayUrl: 'display',
  });

  it('shows a phone the medium image and a dense laptop the display image', () => {
    expect(viewerImageUrl(photo(4032, 3024), { width: 390, height: 844, density: 3 })).toBe('medium');
    expect(viewerImageUrl(photo(3024, 4032), { width: 390, height: 844, density: 3 })).toBe('medium');
    expect(viewerImageUrl(photo(4032, 3024), { width: 1440, height: 900, density: 2 })).toBe('display');
    expect(viewerImageUrl(photo(4032, 3024), { width: 1280, height: 800, density: 1 })).toBe('medium');
  });

  it('falls back to the display image when the photo has no size', () => {
    expect(viewerImageUrl(photo(0, 0), { width: 390, height: 844, density: 3 })).toBe('display');
  });
});
