import { z } from 'zod';
import { RATING } from '../rules.js';

export const voteBody = z
  .object({ rating: z.number({ error: RATING.invalid }).int(RATING.invalid).min(RATING.min, RATING.invalid).max(RATING.max, RATING.invalid) }, { error: RATING.invalid })
  .meta({ id: 'Vote' });

/** The caller's rating and the photo's new totals. */
export const voteResult = z
  .object({ rating: z.number().int(), averageRating: z.number(), voteCount: z.number().int() })
  .meta({ id: 'VoteResult' });

/** The caller's own rating of a photo, null before they rate it. */
export const myVote = z.object({ rating: z.number().int().nullable() }).meta({ id: 'MyVote' });
