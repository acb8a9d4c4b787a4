import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrismaPg } from '@prisma/adapter-pg';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { makeEvent } from '../bus/event-types.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres.js';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { consumeIdempotently } from './consume-idempotently.js';
import type { SqlClient } from './sql-client.js';

const SCHEMA = 'svc';
const voteCast = () => makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'u1', rating: 5 }, { source: 'vote' });

describe('consumeIdempotently', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  beforeEach(async () => {
    db = await createTestDatabase('consume');
    await createOutboxTables(db.url, SCHEMA);
    prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }, { schema: SCHEMA }) });
    await prisma.$executeRawUnsafe(`CREATE TABLE "${SCHEMA}"."votes_seen" ("n" INT NOT NULL)`);
  });
  afterEach(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  /** The reaction under test: counts the vote in the consumer's own table, in the given transaction. */
  const countVote = async (tx: SqlClient): Promise<void> => {
    await tx.$executeRawUnsafe(`INSERT INTO "${SCHEMA}"."votes_seen" ("n") VALUES (1)`);
  };
  const votesSeen = async () => (await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${SCHEMA}"."votes_seen"`))[0]!.n;

  it('handles an event once per consumer, however often it is delivered', async () => {
    const event = voteCast();
    const consume = (consumer: string) => consumeIdempotently({ prisma, schema: SCHEMA, consumer, event, handle: countVote });
    expect(await consume('stats')).toBe(true);
    expect(await consume('stats')).toBe(false);
    expect(await consume('photo')).toBe(true);
    expect(await votesSeen()).toBe(2n);
    expect(await prisma.processedEvent.count()).toBe(2);
  });

  it('hands the handler the typed transaction client', async () => {
    await consumeIdempotently({
      prisma,
      schema: SCHEMA,
      consumer: 'stats',
      event: voteCast(),
      handle: async (tx) => {
        // Typed through the service's own client: the model API is there.
        expect(await tx.processedEvent.count()).toBe(1);
      },
    });
  });

  it('records nothing when the handler fails, so the redelivery handles it', async () => {
    const event = voteCast();
    const failing = consumeIdempotently({
      prisma,
      schema: SCHEMA,
      consumer: 'stats',
      event,
      handle: async (tx) => {
        await countVote(tx);
        throw new Error('projection broken');
      },
    });
    await expect(failing).rejects.toThrow('projection broken');
    expect(await votesSeen()).toBe(0n);

    expect(await consumeIdempotently({ prisma, schema: SCHEMA, consumer: 'stats', event, handle: countVote })).toBe(true);
    expect(await votesSeen()).toBe(1n);
  });

  it('handles concurrent duplicate deliveries once', async () => {
    const event = voteCast();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => consumeIdempotently({ prisma, schema: SCHEMA, consumer: 'stats', event, handle: countVote })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await votesSeen()).toBe(1n);
  });
});
