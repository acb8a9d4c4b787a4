import { connect } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { deadLetterStream } from '../bus/nats-dead-letters.js';
import { uniqueTestName } from './unique-name.js';

/** The NATS server tests use: `TEST_NATS_URL`, else the machine's local one. */
export function testNatsUrl(): string {
  return process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
}

export interface TestStream {
  url: string;
  /** A unique stream name, for the bus to create. */
  stream: string;
  /** A unique subject prefix, so the stream's subjects overlap no other stream's. */
  subjectPrefix: string;
  /** A management connection for inspecting the stream and its consumers. */
  jsm: JetStreamManager;
  /** Deletes the stream (with its consumers) and closes the management connection. */
  delete(): Promise<void>;
}

export async function createTestStream(prefix: string): Promise<TestStream> {
  const id = uniqueTestName(prefix);
  const stream = id.toUpperCase();
  const url = testNatsUrl();
  const nc = await connect({ servers: url });
  const jsm = await jetstreamManager(nc);
  return {
    url,
    stream,
    subjectPrefix: `test.${id}.events`,
    jsm,
    async delete() {
      for (const name of [stream, deadLetterStream(stream)]) {
        try {
          await jsm.streams.delete(name);
        } catch {
          // never created, or already gone
        }
      }
      await nc.close();
    },
  };
}
