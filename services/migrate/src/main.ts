/**
 * The migration job (the chart's pre-install/pre-upgrade hook, `snapcracks-migrate` image): applies every
 * schema's committed migrations, then exits. It takes session advisory locks, so it connects to
 * DATABASE_DIRECT_URL when set (PostgreSQL itself, not a transaction-mode PgBouncer), else DATABASE_URL.
 */
import { z } from 'zod';
import { applyMigrations, baseConfigSchema, createLogger, exitOnConfigError, loadConfig, optionalString } from '@snapcracks/kit';
import { MIGRATED_DATABASES } from './databases.js';

const config = loadConfig(baseConfigSchema.extend({ DATABASE_URL: optionalString }));
const logger = createLogger('migrate', config.LOG_LEVEL);
const databaseUrl = exitOnConfigError(() =>
  z.string({ error: 'DATABASE_URL (or DATABASE_DIRECT_URL): required' }).url().parse(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL),
);
for (const database of MIGRATED_DATABASES) await applyMigrations({ databaseUrl, ...database, logger });
logger.info('migrations applied');
