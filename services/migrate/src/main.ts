/**
 * The migration job (the chart's pre-install/pre-upgrade hook, `snapcracks-migrate` image, `pnpm db:migrate`): applies
 * every schema's committed migrations as the admin role, then gives each component its own role confined to its
 * schema, then exits. The admin connects to DATABASE_DIRECT_URL when set (PostgreSQL itself, not a transaction-mode
 * PgBouncer: the job takes session advisory locks), else DATABASE_URL. Each component's role and password come from
 * its own connection string, <COMPONENT>_DATABASE_URL (AUTH_DATABASE_URL, …, GATEWAY_DATABASE_URL), the same value the
 * component is started with; a component without one gets no role.
 */
import { z } from 'zod';
import { baseConfigSchema, createLogger, exitOnConfigError, loadConfig, optionalString } from '@snapcracks/kit';
import { MIGRATED_DATABASES } from './databases.js';
import { runMigrationJob } from './job.js';
import { roleUrlVariable, schemaRolesFrom } from './schema-roles-config.js';

const schemas = MIGRATED_DATABASES.map((d) => d.schema);
const config = loadConfig(baseConfigSchema.extend({ DATABASE_URL: optionalString, ...Object.fromEntries(schemas.map((s) => [roleUrlVariable(s), optionalString])) }));
const logger = createLogger('migrate', config.LOG_LEVEL);
const databaseUrl = exitOnConfigError(() =>
  z.string({ error: 'DATABASE_URL (or DATABASE_DIRECT_URL): required' }).url().parse(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL),
);
const roles = exitOnConfigError(() => schemaRolesFrom(process.env, { adminUrl: databaseUrl, schemas }));
try {
  await runMigrationJob({ databaseUrl, roles, logger });
} catch (error) {
  logger.error({ err: error }, 'the migration job failed');
  process.exitCode = 1;
}
