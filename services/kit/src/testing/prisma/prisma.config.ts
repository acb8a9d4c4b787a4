import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The JS engine with a driver adapter keeps `prisma generate` offline (native engines would be downloaded).
// Generating never connects, but the schema's datasource still needs a URL to parse.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'schema.prisma',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
