import type { MessagePort } from 'node:worker_threads';
import {
  Envelope,
  encodeEvents,
  handleInEventContext,
  type DeadLetterQueue,
  type EncodedEvents,
  type EventBus,
  type EventHandler,
  type SubscribeOptions,
  type Subscription,
} from '@snapcracks/kit';

/**
 * The in-process event bus across the two threads of the all-in-one process: the bus lives on the services' thread
 * (serveBus), and the gateway's thread reaches it through a MessagePort (busOverPort) with the same semantics. A
 * delivery waits for the other thread's handler, so a failure there is retried and dead-lettered by the bus itself.
 */

type Call =
  | { op: 'publish'; message: EncodedEvents }
  | { op: 'subscribe'; sub: number; options: SubscribeOptions }
  | { op: 'unsubscribe'; sub: number }
  | { op: 'deadLetters.list'; options?: Parameters<DeadLetterQueue['list']>[0] }
  | { op: 'deadLetters.replay' | 'deadLetters.discard'; seq: number };

/** An error as it crosses threads: whatever it holds beyond its name and message may not survive the copy. */
type ThreadError = { name: string; message: string };

/** From the gateway's thread. */
type Request = { kind: 'call'; id: number; call: Call } | { kind: 'handled'; delivery: number; error?: ThreadError };
/** From the services' thread. */
type Reply = { kind: 'result'; id: number; value?: unknown; error?: ThreadError } | { kind: 'deliver'; sub: number; delivery: number; data: Uint8Array };

function toThread(error: unknown): ThreadError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function fromThread({ name, message }: ThreadError): Error {
  return Object.assign(new Error(message), { name });
}

/** Serves `bus` to the thread at the other end of `port`, until the port closes. */
export function serveBus(bus: EventBus, port: MessagePort): void {
  const subscriptions = new Map<number, Subscription>();
  const deliveries = new Map<number, { resolve(): void; reject(error: unknown): void }>();
  let nextDelivery = 1;
  const post = (reply: Reply) => port.postMessage(reply);

  const forwardTo =
    (sub: number): EventHandler =>
    (event) =>
      new Promise<void>((resolve, reject) => {
        const delivery = nextDelivery++;
        deliveries.set(delivery, { resolve, reject });
        post({ kind: 'deliver', sub, delivery, data: Envelope.encode(event).finish() });
      });

  async function run(call: Call): Promise<unknown> {
    switch (call.op) {
      case 'publish':
        return bus.publishEncoded(call.message);
      case 'subscribe':
        subscriptions.set(call.sub, await bus.subscribe(forwardTo(call.sub), call.options));
        return undefined;
      case 'unsubscribe':
        await subscriptions.get(call.sub)?.close();
        subscriptions.delete(call.sub);
        return undefined;
      case 'deadLetters.list':
        return bus.deadLetters.list(call.options);
      case 'deadLetters.replay':
        return bus.deadLetters.replay(call.seq);
      case 'deadLetters.discard':
        return bus.deadLetters.discard(call.seq);
    }
  }

  port.on('message', (request: Request) => {
    if (request.kind === 'handled') {
      const waiting = deliveries.get(request.delivery);
      deliveries.delete(request.delivery);
      if (request.error === undefined) waiting?.resolve();
      else waiting?.reject(fromThread(request.error));
      return;
    }
    run(request.call).then(
      (value) => post({ kind: 'result', id: request.id, value }),
      (error: unknown) => post({ kind: 'result', id: request.id, error: toThread(error) }),
    );
  });
  port.on('close', () => {
    for (const waiting of deliveries.values()) waiting.reject(new Error('The gateway thread is gone'));
    deliveries.clear();
    void Promise.all([...subscriptions.values()].map((subscription) => subscription.close()));
  });
}

/** The bus served at the other end of `port`, as an EventBus of this thread. */
export function busOverPort(port: MessagePort): EventBus {
  const calls = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  const handlers = new Map<number, EventHandler>();
  let nextId = 1;
  let closed = false;

  const call = <T>(request: Call): Promise<T> => {
    if (closed) return Promise.reject(new Error('The event bus is closed'));
    return new Promise<T>((resolve, reject) => {
      const id = nextId++;
      calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      port.postMessage({ kind: 'call', id, call: request } satisfies Request);
    });
  };

  port.on('message', (reply: Reply) => {
    if (reply.kind === 'result') {
      const waiting = calls.get(reply.id);
      calls.delete(reply.id);
      if (reply.error === undefined) waiting?.resolve(reply.value);
      else waiting?.reject(fromThread(reply.error));
      return;
    }
    const handler = handlers.get(reply.sub);
    const handled = handler ? handleInEventContext(Envelope.decode(reply.data), handler) : Promise.reject(new Error('No such subscription'));
    handled.then(
      () => port.postMessage({ kind: 'handled', delivery: reply.delivery } satisfies Request),
      (error: unknown) => port.postMessage({ kind: 'handled', delivery: reply.delivery, error: toThread(error ?? 'event handler failed') } satisfies Request),
    );
  });

  return {
    inProcess: true,
    publish: (event) => call({ op: 'publish', message: { id: event.id, type: event.type, data: encodeEvents([event]) } }),
    publishEncoded: (message) => call({ op: 'publish', message }),
    deadLetters: {
      list: (options) => call({ op: 'deadLetters.list', options }),
      replay: (seq) => call({ op: 'deadLetters.replay', seq }),
      discard: (seq) => call({ op: 'deadLetters.discard', seq }),
    },
    async subscribe(handler, options) {
      const sub = nextId++;
      handlers.set(sub, handler);
      try {
        await call({ op: 'subscribe', sub, options });
      } catch (error) {
        handlers.delete(sub);
        throw error;
      }
      return {
        async close() {
          await call({ op: 'unsubscribe', sub }).catch(() => undefined);
          handlers.delete(sub);
        },
      };
    },
    async close() {
      closed = true;
      for (const waiting of calls.values()) waiting.reject(new Error('The event bus is closed'));
      calls.clear();
      port.close();
    },
  };
}
