import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutgoingStream } from '@snapcracks/kit';
import errors from '../plugins/errors.js';
import { ERRORS } from '@snapcracks/http-contract';
import { HttpError } from '../http-errors.js';
import { acceptMultipart, streamOneFile, type OneFileUpload } from './one-file.js';

type Message = { header: string } | { chunk: Buffer } | { trailer: string };

/** The gRPC client stream, recorded: what was sent, and whether it was finished or cancelled. */
class RecordedCall implements OutgoingStream<Message, { received: number }> {
  readonly sent: Message[] = [];
  state: 'open' | 'finished' | 'cancelled' = 'open';
  async send(message: Message) {
    this.sent.push(message);
  }
  async finish() {
    this.state = 'finished';
    return { received: this.sent.reduce((n, m) => n + ('chunk' in m ? m.chunk.byteLength : 0), 0) };
  }
  cancel() {
    this.state = 'cancelled';
  }
}

const MAX_FILE = 1024;
const REFUSED = 'Only one small file';
const TOO_LARGE = 'The file must be 1 kB or less';

let app: FastifyInstance;
let url: string;
let calls: RecordedCall[];
let fields: [string, string][];
let options: Partial<OneFileUpload<Message, { received: number }>>;

beforeEach(async () => {
  calls = [];
  fields = [];
  options = {};
  app = Fastify();
  await app.register(errors);
  await app.register(async (scope) => {
    await acceptMultipart(scope, { fileSize: MAX_FILE, files: 1, fields: 1, parts: 2, fieldSize: 100 });
    scope.post('/upload', async (request, reply) =>
      streamOneFile(request, reply, {
        field: 'file',
        maxRequestBytes: MAX_FILE + 1024,
        refused: REFUSED,
        tooLarge: TOO_LARGE,
        overOtherLimits: 'refused',
        onField: (name, value) => void fields.push([name, value]),
        open: () => {
          const call = new RecordedCall();
          calls.push(call);
          return call;
        },
        chunk: (chunk) => ({ chunk }),
        ...options,
      }),
    );
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/upload`;
});
afterEach(() => app.close());

/** A real connection rather than inject: a refusal reads the rest of the body off the socket before answering. */
async function send(body: FormData | string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { statusCode: response.status, body: (await response.json()) as unknown, connection: response.headers.get('connection') };
}

type Part = [name: string, value: string] | [name: string, bytes: Buffer, filename: string];

async function post(parts: Part[]) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value)]), filename);
  }
  return send(form);
}

/** Declares a body larger than it sends: the answer must come from the headers alone. */
function declaring(length: number): Promise<{ statusCode: number; body: unknown; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ statusCode: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), connection: response.headers.connection }));
    });
    request.on('error', reject);
    request.write('--b\r\n');
  });
}

describe('streamOneFile', () => {
  it('streams the file to one call with the form’s fields on either side, and finishes it last', async () => {
    let field: string | undefined;
    options.header = () => ({ header: `first ${field ?? '-'}` });
    options.trailer = () => ({ trailer: `last ${field}` });
    options.onField = (_name, value) => void (field = value);
    const response = await post([['file', Buffer.alloc(600, 1), 'a.jpg'], ['note', 'after']]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ received: 600 });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.state).toBe('finished');
    expect(calls[0]!.sent.at(0)).toEqual({ header: 'first -' });
    expect(calls[0]!.sent.at(-1)).toEqual({ trailer: 'last after' });
  });

  it('refuses a missing, misnamed or second file and a field the form has not, cancelling any call', async () => {
    for (const parts of [
      [['note', 'no file']],
      [['other', Buffer.alloc(10), 'a.jpg']],
      [['file', Buffer.alloc(10), 'a.jpg'], ['file', Buffer.alloc(10), 'b.jpg']],
    ] as Part[][]) {
      calls = [];
      const response = await post(parts);
      expect([response.statusCode, response.body], JSON.stringify(parts)).toEqual([400, { message: REFUSED }]);
      expect(calls.every((call) => call.state === 'cancelled')).toBe(true);
    }
    options.onField = undefined;
    const response = await post([['note', 'x'], ['file', Buffer.alloc(10), 'a.jpg']]);
    expect([response.statusCode, response.body]).toEqual([400, { message: REFUSED }]);
  });

  it('answers 413 to a file over its size, before or while reading it, and cancels the call', async () => {
    const over = await post([['file', Buffer.alloc(MAX_FILE + 1), 'a.jpg']]);
    expect([over.statusCode, over.body]).toEqual([413, { message: TOO_LARGE }]);
    expect(calls.map((call) => call.state)).toEqual(['cancelled']);
    const declared = await declaring(10 * MAX_FILE);
    expect([declared.statusCode, declared.body, declared.connection]).toEqual([413, { message: TOO_LARGE }, 'close']);
  });

  it('answers the form’s refusal to what is not multipart, and a 400 to a body cut short', async () => {
    const json = await send(JSON.stringify({ file: 'x' }), { 'content-type': 'application/json' });
    expect([json.statusCode, json.body]).toEqual([400, { message: REFUSED }]);
    const cut = await send('--b\r\ncontent-disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc', { 'content-type': 'multipart/form-data; boundary=b' });
    expect([cut.statusCode, cut.body]).toEqual([400, { message: ERRORS.malformedMultipart }]);
    expect(calls.map((call) => call.state)).toEqual(['cancelled']);
  });

  it('cancels the call when the last message is refused, answering the refusal', async () => {
    options.trailer = () => {
      throw new HttpError(400, 'Not that note');
    };
    const response = await post([['file', Buffer.alloc(10), 'a.jpg'], ['note', 'bad']]);
    expect([response.statusCode, response.body]).toEqual([400, { message: 'Not that note' }]);
    expect(calls.map((call) => call.state)).toEqual(['cancelled']);
  });
});
