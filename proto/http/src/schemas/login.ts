import { z } from 'zod';
import { sameOriginPath } from '../return-to.js';

/**
 * `returnTo` on GET /api/login: a same-origin path, or undefined for anything else (missing, repeated, foreign, too
 * long). A bad value is ignored rather than refused: sign-in then lands on `/`, as it would without one.
 */
export const loginQuery = z.object({
  returnTo: z
    .string()
    .transform((value) => sameOriginPath(value))
    .optional()
    .catch(undefined),
});
