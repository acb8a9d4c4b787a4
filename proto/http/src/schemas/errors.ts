import { z } from 'zod';

/** Every error answer: one sentence a person can act on (spec §8 shows it in toasts). */
export const errorBody = z
  .object({ message: z.string().meta({ example: 'Description must be 500 characters or less' }) })
  .meta({ id: 'Error', description: 'What went wrong, in words fit to show the person.' });
