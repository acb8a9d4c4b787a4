import { z } from 'zod';
import { REPORTS } from '@snapcracks/http-contract';
import { envInteger, parseConfig } from '@snapcracks/kit';

const schema = z.object({
  /** Distinct members whose open reports take an approved photo out of the gallery and back to review. */
  REPORTS_TO_HOLD: envInteger(REPORTS.defaultHoldThreshold, 1, 1_000),
});

export type ModerationConfig = z.output<typeof schema>;
export const loadModerationConfig = (env: Record<string, string | undefined> = process.env): ModerationConfig => parseConfig(schema, env);
