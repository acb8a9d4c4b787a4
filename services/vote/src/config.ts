import { z } from 'zod';
import { envBoolean, envDuration, parseConfig } from '@snapcracks/kit';

const schema = z.object({
  /** Whether a disabled account's votes keep counting. Off by default: they stop while it is disabled, and count again once it is enabled. */
  VOTES_OF_DISABLED_ACCOUNTS_COUNT: envBoolean(false),
  /** How often the Raters page's figures are computed again over every vote (a member's own at once after a void or restoration). */
  RATER_FIGURES_REFRESH: envDuration('10m'),
});

export type VoteConfig = z.output<typeof schema>;
export const loadVoteConfig = (env: Record<string, string | undefined> = process.env): VoteConfig => parseConfig(schema, env);
