import net from 'node:net';

export type Fault = { kind: 'none' } | { kind: 'fail' } | { kind: 'slow'; delayMs: number };

/**
 * A TCP relay in front of a blob store that the harness can make fail (every connection, open or new, is reset) or
 * slow (every chunk each way held back `delayMs`), to play an unreachable or overloaded S3 or Drive.
 */
export interface FaultProxy {
  port: number;
  set(fault: Fault): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let fault: Fault = { kind: 'none' };
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  // Constant delay per fault, so chunks scheduled in order are also written in order.
  const relay = (from: net.Socket, to: net.Socket) =>
    from.on('data', (chunk) => {
      const delayMs = fault.kind === 'slow' ? fault.delayMs : 0;
      if (delayMs === 0) to.write(chunk);
      else setTimeout(() => to.writable && to.write(chunk), delayMs);
    });
  const server = net.createServer((client) => {
    track(client);
    if (fault.kind === 'fail') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target);
    track(upstream);
    relay(client, upstream);
    relay(upstream, client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  return {
    port,
    set(next) {
      fault = next;
      if (next.kind === 'fail') for (const socket of sockets) socket.resetAndDestroy();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
