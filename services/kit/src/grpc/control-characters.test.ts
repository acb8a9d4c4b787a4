import { afterEach, describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { SupportServiceClient, SupportServiceService, type SupportServiceServer } from '@snapcracks/proto/support/v1';
import { pino } from 'pino';
import { GrpcServer } from './server.js';
import { createServiceClient } from './client.js';
import { stubHandlers } from '../testing/stub-handlers.js';
import { IdentityKeyring, IdentitySigner } from './identity.js';

const keys = IdentityKeyring.generate();
const servers: GrpcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(100)));
});

describe('a service receiving text with control characters', () => {
  it('refuses it with INVALID_ARGUMENT naming the field, before its handler runs, whoever calls', async () => {
    let handled = 0;
    const server = new GrpcServer({ name: 'support', signer: new IdentitySigner(keys, 'support'), logger: pino({ level: 'silent' }) }).add<SupportServiceServer>(
      SupportServiceService,
      stubHandlers<SupportServiceServer>(SupportServiceService, {
        async submitContactForm() {
          handled += 1;
          return {};
        },
      }),
    );
    servers.push(server);
    const port = await server.start('127.0.0.1', 0);
    const client = createServiceClient(SupportServiceClient, `127.0.0.1:${port}`, { signer: new IdentitySigner(keys, 'gateway'), peer: 'support' });
    const form = { name: 'Sam', email: 'sam@example.com', subject: 'Hello', message: 'A question about votes' };

    await expect(client.call.submitContactForm({ ...form, subject: 'Hel\u0000lo' }, { caller: null })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'subject must not contain control characters',
    });
    expect(handled).toBe(0);
    await client.call.submitContactForm({ ...form, message: 'Two\nlines\twith a tab' }, { caller: null });
    expect(handled).toBe(1);
    client.close();
  });
});
