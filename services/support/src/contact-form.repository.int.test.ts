import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, decodeEvent, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { ContactFormStatusChanged } from '@snapcracks/proto/events/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaContactFormRepository } from './contact-form.repository.js';
import { statusChangedEvent, submittedEvent } from './support.service.js';
import { describeContactFormRepositoryContract } from './testing/contact-form.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaContactFormRepository;

beforeAll(async () => {
  database = await createTestDatabase('support_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'support', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'support', logger });
  // The relay never starts: the committed events stay in the outbox for the tests to read.
  repository = new PrismaContactFormRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'support', bus: createMemoryEventBus({ logger }), logger }));
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE support.contact_forms, support.outbox RESTART IDENTITY');
});

describeContactFormRepositoryContract('PrismaContactFormRepository', {
  repository: () => repository,
  events: () => outboxEvents(db.prisma, 'support'),
});

describe('PrismaContactFormRepository under concurrency', () => {
  it('queues concurrent changes of one form: one event per real change, in commit order, the last one matching the row', async () => {
    const { id } = await repository.create({ name: 'A', email: 'a@example.com', subject: 'S', message: 'M' }, submittedEvent);
    const targets = Array.from({ length: 30 }, (_, i) => (['new', 'in_progress', 'resolved'] as const)[i % 3]!);
    const changes = await Promise.all(targets.map((status) => repository.setStatus(id, status, statusChangedEvent)));
    const events = (await outboxEvents(db.prisma, 'support')).filter((e) => e.type === 'support.contact_form.status_changed').map((e) => decodeEvent(e, ContactFormStatusChanged));
    expect(events).toHaveLength(changes.filter((c) => c?.changed).length);
    // No event repeats the status before it: each one reports a real change.
    for (let i = 1; i < events.length; i++) expect(events[i]!.status).not.toBe(events[i - 1]!.status);
    const row = await db.prisma.contactForm.findUniqueOrThrow({ where: { id } });
    expect(events.at(-1)?.status ?? 'new').toBe(row.status);
  });

  it('stores text as given, whatever characters it holds', async () => {
    const text = { name: "O'Brien \"Bob\" ; DROP TABLE x; --", email: 'o.brien+x@example.co.uk', subject: 'Ünïcødé 🚀', message: 'Tabs\tand\nnewlines\r\nand \\ backslashes' };
    const created = await repository.create(text, submittedEvent);
    expect(await db.prisma.contactForm.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject(text);
  });
});
