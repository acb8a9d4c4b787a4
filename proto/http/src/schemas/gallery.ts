import { z } from 'zod';
import { GALLERY, PAGES } from '../rules.js';
import { pageQuery, wholeNumber } from '../fields.js';
import { galleryPhoto } from './photos.js';

export const galleryFilter = z.enum(GALLERY.filters).meta({ id: 'GalleryFilter' });

/** Unknown filters are a 404 (a page that does not exist), not a 400. */
export const galleryParams = z.object({ filter: z.string().meta({ description: 'The filter.', enum: [...GALLERY.filters] }) });

export const galleryQuery = pageQuery(PAGES.limits.gallery);

/** Spec §3 Gallery response. */
export const galleryPage = z
  .object({ photos: z.array(galleryPhoto), total: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'GalleryPage' });

export const previewQuery = z.object({
  limit: wholeNumber(PAGES.limitInvalid(PAGES.limits.previews.max), PAGES.limits.previews.max)
    .default(PAGES.limits.previews.default)
    .meta({ description: `How many, at most ${PAGES.limits.previews.max}.` }),
});

/** The whole community's numbers for the gallery's stats strip (spec §2). */
export const galleryStats = z
  .object({ photoCount: z.number().int(), totalVotes: z.number().int(), ratedFourOrHigher: z.number().int(), distinctUploaders: z.number().int() })
  .meta({ id: 'GalleryStats' });
