import { z } from 'zod';

/** The sizes of a photo's image: the 480 px thumbnail, the 960 px medium image, the 2048 px display image, the original. */
export const imageSizes = ['thumb', 'medium', 'display', 'original'] as const;
export type ImageSize = (typeof imageSizes)[number];

export const imageParams = z.object({ filename: z.string().meta({ description: 'The file name.' }) });

export const imageQuery = z
  .object({
    size: z.enum(imageSizes).default('display'),
    v: z.coerce.number().int().nonnegative().optional().meta({ description: "The image's version; it changes with the privacy bars." }),
    // Cache-busting parameters the web app adds (spec §4, §7); accepted and ignored.
    t: z.string().optional(),
    time: z.string().optional(),
    retry: z.string().optional(),
  })
  .loose();
