import { fileURLToPath } from 'node:url';

const migrations = (componentDir: string) => fileURLToPath(new URL(`../../../${componentDir}/prisma/migrations`, import.meta.url));

/**
 * Every schema the product owns and its committed migrations, in the order the all-in-one mode applies them
 * (the services, then the gateway's sessions). Listed here rather than taken from the services' modules so that
 * the migration job's image carries only SQL files, the kit and pg, not every service's dependencies
 * (image processing, face detection); databases.test.ts keeps the list equal to the services' own.
 */
export const MIGRATED_DATABASES: { schema: string; migrationsDir: string }[] = [
  { schema: 'auth', migrationsDir: migrations('services/auth') },
  { schema: 'photo', migrationsDir: migrations('services/photo') },
  { schema: 'vote', migrationsDir: migrations('services/vote') },
  { schema: 'moderation', migrationsDir: migrations('services/moderation') },
  { schema: 'stats', migrationsDir: migrations('services/stats') },
  { schema: 'support', migrationsDir: migrations('services/support') },
  { schema: 'storage', migrationsDir: migrations('services/storage') },
  { schema: 'gateway', migrationsDir: migrations('gateway') },
];
