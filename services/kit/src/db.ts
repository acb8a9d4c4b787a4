import { PrismaPg } from '@prisma/adapter-pg';

/** Any generated Prisma client class (each service generates its own into its own package). */
type PrismaClientClass<C> = new (options: { adapter: PrismaPg; log?: never[] }) => C;

/**
 * Creates a service's Prisma client bound to its own Postgres schema, through the pg driver adapter.
 * `max` keeps many services in one all-in-one process from exhausting the server's connections.
 */
export function createPrismaClient<C>(PrismaClient: PrismaClientClass<C>, options: { databaseUrl: string; schema: string; max?: number }): C {
  const adapter = new PrismaPg({ connectionString: options.databaseUrl, max: options.max ?? 5 }, { schema: options.schema });
  return new PrismaClient({ adapter });
}
