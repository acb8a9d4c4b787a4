import net from 'node:net';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcServer, IdentityKeyring, IdentitySigner, createLogger, createServiceClient, type ServiceClient } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { Readiness, peerHealth } from './readiness.js';

const logger = createLogger('test', 'silent');
const identity = IdentityKeyring.generate();

/** A TCP relay that counts the connections made through it: every new gRPC channel is one more. */
async function countingRelay(target: number): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let grpcServer: GrpcServer;
let relay: Awaited<ReturnType<typeof countingRelay>>;
let auth: ServiceClient<AuthServiceClient>;
let stopped: ServiceClient<AuthServiceClient>;

beforeAll(async () => {
  grpcServer = new GrpcServer({ name: 'auth', signer: new IdentitySigner(identity, 'auth'), logger });
  const port = await grpcServer.start('127.0.0.1', 0);
  relay = await countingRelay(port);
  const signer = new IdentitySigner(identity, 'gateway');
  auth = createServiceClient(AuthServiceClient, `127.0.0.1:${relay.port}`, { signer, peer: 'auth' });
  // Nothing listens there.
  stopped = createServiceClient(AuthServiceClient, '127.0.0.1:1', { signer, peer: 'auth' });
});

afterAll(async () => {
  auth.close();
  stopped.close();
  await relay.close();
  await grpcServer.shutdown(100);
});

describe('peer health for the readiness detail', () => {
  it("asks each peer's standard health service over the gateway's own channel: no new connection per check", async () => {
    // The gateway's client is connected, as it is once it has made a call.
    await peerHealth({ auth }).check();
    const before = relay.connections();
    expect(before).toBe(1);
    const health = peerHealth({ auth, photo: stopped });
    for (let i = 0; i < 20; i++) expect(await health.check()).toEqual({ auth: 'SERVING', photo: 'UNREACHABLE' });
    expect(relay.connections()).toBe(before);
    // The channel stays the client's: checking never closed it.
    expect(auth.channel().getConnectivityState(false)).not.toBe(4 /* SHUTDOWN */);
  });

  it('serves the detail on a plain Node handler, as the internal port takes routes', async () => {
    const readiness = new Readiness({ isDraining: () => false, pingDatabase: async () => undefined, peers: peerHealth({ auth, photo: stopped }) });
    const server: Server = createServer((request, response) => void readiness.detailRoute()(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/readyz/detail`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', database: 'ok', services: { auth: 'SERVING', photo: 'UNREACHABLE' }, draining: false });
    } finally {
      server.close();
    }
  });
});
