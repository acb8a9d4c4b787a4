import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  appProperties: Record<string, string>;
  data: Buffer;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  form?: URLSearchParams;
}

export interface FakeGoogle {
  url: string;
  /** Files in the fake Drive, by id. */
  files: Map<string, FakeDriveFile>;
  requests: RecordedRequest[];
  /** The variables that point the storage service at this fake. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const FAKE_CLIENT = { id: 'fake-client-id.apps.googleusercontent.com', secret: 'fake-client-secret' };
export const FAKE_REFRESH_TOKEN = 'fake-refresh-token';
/** The one authorization code the fake token endpoint accepts, and the refresh token it answers with. */
export const GOOD_CODE = 'good-code';
export const REFRESH_TOKEN_FROM_CODE = 'refresh-token-from-code';

/**
 * The few Google endpoints the storage service uses, over plain HTTP on loopback: the OAuth token endpoint
 * (refresh and code exchange), and Drive v3 files.create (multipart media upload, as googleapis sends it),
 * files.get with alt=media, files.list by appProperties, and files.delete. Drive calls need a bearer token the
 * token endpoint handed out.
 */
export async function startFakeGoogle(): Promise<FakeGoogle> {
  const files = new Map<string, FakeDriveFile>();
  const requests: RecordedRequest[] = [];
  const accessTokens = new Set<string>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { error: { code: 500, message: String(error) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    const record: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(record);

    if (url.pathname === '/oauth/token' && req.method === 'POST') {
      const form = new URLSearchParams(body.toString('utf8'));
      record.form = form;
      if (form.get('client_id') !== FAKE_CLIENT.id || form.get('client_secret') !== FAKE_CLIENT.secret) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const accessToken = `access-${randomUUID()}`;
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === FAKE_REFRESH_TOKEN) {
        accessTokens.add(accessToken);
        return json(res, 200, { access_token: accessToken, expires_in: 3600, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/drive.file' });
      }
      if (form.get('grant_type') === 'authorization_code' && form.get('code') === GOOD_CODE && form.get('redirect_uri')) {
        accessTokens.add(accessToken);
        return json(res, 200, { access_token: accessToken, refresh_token: REFRESH_TOKEN_FROM_CODE, expires_in: 3600, token_type: 'Bearer' });
      }
      return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
    }

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !accessTokens.has(token)) return json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.' } });

    if (url.pathname === '/upload/drive/v3/files' && req.method === 'POST') {
      if (url.searchParams.get('uploadType') !== 'multipart') return json(res, 400, { error: { code: 400, message: 'expected a multipart upload' } });
      const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1];
      if (!boundary) return json(res, 400, { error: { code: 400, message: 'no boundary' } });
      const [metadataPart, mediaPart] = parseMultipartRelated(body, boundary);
      if (!metadataPart || !mediaPart) return json(res, 400, { error: { code: 400, message: 'expected metadata and media' } });
      const metadata = JSON.parse(metadataPart.body.toString('utf8')) as Partial<FakeDriveFile>;
      const file: FakeDriveFile = {
        id: `file-${randomUUID()}`,
        name: metadata.name ?? 'Untitled',
        mimeType: metadata.mimeType ?? mediaPart.contentType,
        parents: metadata.parents ?? [],
        appProperties: metadata.appProperties ?? {},
        data: mediaPart.body,
      };
      files.set(file.id, file);
      return json(res, 200, { id: file.id });
    }

    if (url.pathname === '/drive/v3/files' && req.method === 'GET') {
      const match = /appProperties has \{ key='([^']+)' and value='([^']+)' \}/.exec(url.searchParams.get('q') ?? '');
      const found = [...files.values()].filter((f) => match && f.appProperties[match[1]!] === match[2]);
      return json(res, 200, { files: found.map((f) => ({ id: f.id })) });
    }

    const fileMatch = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    if (fileMatch) {
      const file = files.get(decodeURIComponent(fileMatch[1]!));
      if (!file) return json(res, 404, { error: { code: 404, message: 'File not found.' } });
      if (req.method === 'GET' && url.searchParams.get('alt') === 'media') {
        res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.data.byteLength });
        res.end(file.data);
        return;
      }
      if (req.method === 'DELETE') {
        files.delete(file.id);
        res.writeHead(204).end();
        return;
      }
    }
    json(res, 404, { error: { code: 404, message: `No fake for ${req.method} ${url.pathname}` } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    files,
    requests,
    env: {
      GOOGLE_CLIENT_ID: FAKE_CLIENT.id,
      GOOGLE_CLIENT_SECRET: FAKE_CLIENT.secret,
      GOOGLE_REFRESH_TOKEN: FAKE_REFRESH_TOKEN,
      GOOGLE_API_ROOT_URL: `${url}/`,
      GOOGLE_OAUTH_URL: `${url}/oauth`,
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** multipart/related as googleapis writes it: `--b\r\nheaders\r\n\r\nbody\r\n--b\r\n…\r\n--b--`. */
function parseMultipartRelated(body: Buffer, boundary: string): { contentType: string; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { contentType: string; body: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, afterDelimiter);
    if (next === -1) break;
    const part = body.subarray(afterDelimiter + 2, next); // skips the \r\n after the delimiter
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    let content = part.subarray(headerEnd + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    parts.push({ contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? '', body: content });
    start = next;
  }
  return parts;
}
