import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

/**
 * The Prisma CLI configuration every component shares. Prisma generates the clients and authors
 * migrations (`pnpm db:migration`); the kit's runner applies them. The adapter and the js engine keep the
 * CLI on its WebAssembly engines, so it never downloads a binary. Paths are relative to the config file.
 */
export function prismaCliConfig(paths: { schema: string; migrations?: string } = { schema: 'prisma/schema.prisma', migrations: 'prisma/migrations' }) {
  // Generating and diffing never connect, but the schema's datasource needs a URL to parse.
  process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
  return defineConfig({
    experimental: { adapter: true },
    engine: 'js',
    schema: paths.schema,
    ...(paths.migrations ? { migrations: { path: paths.migrations } } : {}),
    adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
  });
}
