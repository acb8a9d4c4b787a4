import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// Prisma generates the client and authors migrations (`pnpm db:migration`); the kit's runner applies them.
// The adapter and the js engine keep the CLI on its WebAssembly engines, so it never downloads a binary.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
