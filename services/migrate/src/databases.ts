import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@snapcracks/kit';

const migrations = (componentDir: string) => fileURLToPath(new URL(`../../../${componentDir}/prisma/migrations`, import.meta.url));

/**
 * Every schema the product owns and its committed migrations, in the order the all-in-one mode applies them
 * (the services, then the gateway's sessions); each service's schema is named after it. Listed here rather than taken
 * from the services' modules so that the migration job's image carries only SQL files, the kit and pg, not every
 * service's dependencies (image processing, face detection); databases.test.ts keeps the list equal to the services' own.
 */
export const MIGRATED_DATABASES: { schema: string; migrationsDir: string }[] = [
  ...SERVICE_NAMES.map((name) => ({ schema: name, migrationsDir: migrations(`services/${name}`) })),
  { schema: 'gateway', migrationsDir: migrations('gateway') },
];
