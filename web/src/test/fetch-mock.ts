import { vi } from 'vitest';

export interface MockResponse {
  status?: number;
  body?: unknown;
  /** Raw body text; wins over `body`. */
  text?: string;
  statusText?: string;
}

export type MockHandler = MockResponse | ((request: RecordedRequest) => MockResponse | Promise<MockResponse>);

export interface RecordedRequest {
  method: string;
  url: string;
  init: RequestInit | undefined;
  json: unknown;
}

/**
 * Replaces fetch with a table of `'METHOD /path?query'` → response. Unlisted requests answer 404.
 * Returns the list of requests made, for assertions.
 */
export function mockFetch(routes: Record<string, MockHandler>): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = (init?.method ?? 'GET').toUpperCase();
      const request: RecordedRequest = {
        method,
        url,
        init,
        json: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      requests.push(request);
      const handler = routes[`${method} ${url}`];
      const result: MockResponse =
        handler === undefined
          ? { status: 404, text: 'Not Found' }
          : typeof handler === 'function'
            ? await handler(request)
            : handler;
      const status = result.status ?? 200;
      const text = result.text ?? (result.body === undefined ? '' : JSON.stringify(result.body));
      return new Response(status === 204 ? null : text, {
        status,
        statusText: result.statusText ?? '',
        headers: text && result.text === undefined ? { 'Content-Type': 'application/json' } : undefined,
      });
    }),
  );
  return requests;
}

/** A promise with its resolve function, to hold a mocked request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}
