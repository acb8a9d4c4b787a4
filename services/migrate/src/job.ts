import { applyMigrations, type Logger } from '@snapcracks/kit';
import { MIGRATED_DATABASES } from './databases.js';
import { confineSchemaRoles } from './schema-roles.js';
import type { SchemaRole } from './schema-roles-config.js';

/**
 * What the migration job does, as the admin role of `databaseUrl`: every schema's migrations (the admin owns what
 * they create), then each component's own role confined to its schema (schema-roles.ts). Without roles, the
 * components share the admin's connection string, as the all-in-one process does.
 */
export async function runMigrationJob(options: {
  databaseUrl: string;
  roles: readonly SchemaRole[];
  logger: Logger;
  databases?: readonly { schema: string; migrationsDir: string }[];
}): Promise<void> {
  const { databaseUrl, roles, logger, databases = MIGRATED_DATABASES } = options;
  for (const database of databases) await applyMigrations({ databaseUrl, ...database, logger });
  logger.info('migrations applied');
  await confineSchemaRoles({ databaseUrl, roles, schemas: databases.map((d) => d.schema), logger });
  const shared = databases.filter((d) => !roles.some((r) => r.schema === d.schema)).map((d) => d.schema);
  if (roles.length > 0 && shared.length > 0) logger.warn({ schemas: shared }, 'these schemas have no role of their own (no <SCHEMA>_DATABASE_URL): only the admin role reaches them');
}
