import type { IncomingMessage, ServerResponse } from 'node:http';

import { contentSecurityPolicy } from './html.js';

/** A request we refuse with a specific status; the message is safe to show. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// The sign-in form has two short fields; anything bigger is not from it.
const MAX_FORM_BYTES = 16 * 1024;

/** Reads an `application/x-www-form-urlencoded` body, refusing other types and oversized bodies. */
export async function readUrlEncodedForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, 'Expected a form submission (application/x-www-form-urlencoded).');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new HttpError(413, 'The form submission is too large.');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Sends a complete HTML page that must never be cached (it belongs to one pending sign-in). */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(html);
}
