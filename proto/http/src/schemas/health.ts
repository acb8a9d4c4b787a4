import { z } from 'zod';

export const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export const readiness = z.object({ status: z.enum(['ready', 'not ready']) }).meta({ id: 'Readiness' });
