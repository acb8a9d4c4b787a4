import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, Metadata } from '@grpc/grpc-js';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@snapcracks/proto/health/v1';
import { SERVICE_NAMES } from '@snapcracks/kit';
import { createTestDatabase, createTestStream, type TestDatabase, type TestStream } from '@snapcracks/kit/testing';
import { freePort } from '../src/free-port.js';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

let database: TestDatabase;
let stream: TestStream;
beforeAll(async () => {
  [database, stream] = await Promise.all([createTestDatabase('standalone'), createTestStream('standalone')]);
});
afterAll(async () => {
  await database?.drop();
  await stream?.delete();
});

/** One component as its own process, as a Kubernetes pod runs it. */
function run(env: Record<string, string>): { child: ChildProcess; exited: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      NATS_URL: stream.url,
      NATS_STREAM: stream.stream,
      IDENTITY_SECRET: 'i'.repeat(40),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { child, exited };
}

async function servingStatus(port: number): Promise<number | 'unreachable'> {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  try {
    return await new Promise((resolve) =>
      client.check({ service: '' }, new Metadata(), { deadline: new Date(Date.now() + 1_000) }, (error, response) => resolve(error ? 'unreachable' : response.status)),
    );
  } finally {
    client.close();
  }
}

describe('microservices mode', () => {
  it('SERVICE=migrate applies every migration and exits', async () => {
    const { exited } = run({ SERVICE: 'migrate' });
    const { code, output } = await exited;
    expect(code, output).toBe(0);
  }, 60_000);

  it.each(SERVICE_NAMES)('SERVICE=%s starts alone, reports SERVING over gRPC health and stops cleanly on SIGTERM', async (name) => {
    const port = await freePort();
    // Peers are dialled lazily: a service starts while they are away, as pods do in any order.
    const peers = Object.fromEntries(SERVICE_NAMES.map((peer) => [`${peer.toUpperCase()}_SERVICE_ADDR`, '127.0.0.1:9']));
    const { child, exited } = run({ SERVICE: name, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), ...peers });
    await expect.poll(() => servingStatus(port), { timeout: 60_000, interval: 250 }).toBe(HealthCheckResponse_ServingStatus.SERVING);
    child.kill('SIGTERM');
    const { code, output } = await exited;
    expect(code, output).toBe(0);
  }, 90_000);

  it('a service whose peer has no address stops start-up with one clear line', async () => {
    const { exited } = run({ SERVICE: 'photo', GRPC_HOST: '127.0.0.1', GRPC_PORT: String(await freePort()) });
    const { code, output } = await exited;
    expect(code).toBe(78);
    expect(output).toMatch(/^Invalid configuration: STORAGE_SERVICE_ADDR: .+$/m);
  }, 60_000);

  it('a wrong setting stops start-up with one clear line', async () => {
    const { exited } = run({ SERVICE: 'vote', GRPC_PORT: 'eighty' });
    const { code, output } = await exited;
    expect(code).toBe(78);
    expect(output.trim()).toMatch(/^Invalid configuration: GRPC_PORT: [^\n]+$/);
  }, 60_000);
});
