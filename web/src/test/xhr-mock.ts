import { vi } from 'vitest';

export interface XhrMockResponse {
  status?: number;
  /** Serialised as JSON unless `text` is given. */
  body?: unknown;
  text?: string;
  statusText?: string;
  /** Upload progress events to fire before the answer, as [loaded, total] pairs. */
  progress?: Array<[number, number]>;
  /** Fail as a network error instead of answering. */
  networkError?: boolean;
}

export type XhrMockHandler =
  | XhrMockResponse
  | ((request: RecordedXhr) => XhrMockResponse | Promise<XhrMockResponse>);

export interface RecordedXhr {
  method: string;
  url: string;
  withCredentials: boolean;
  headers: Record<string, string>;
  body: unknown;
  /** The multipart fields, when the body is FormData. */
  form: FormData | undefined;
  aborted: boolean;
}

/**
 * Replaces XMLHttpRequest with a fake answering from a table of `'METHOD /path'` → response (unlisted
 * requests answer 404). Returns the requests made, for assertions.
 */
export function mockXhr(routes: Record<string, XhrMockHandler>): RecordedXhr[] {
  const requests: RecordedXhr[] = [];

  class FakeXhr extends EventTarget {
    readonly upload = new EventTarget();
    status = 0;
    statusText = '';
    responseText = '';
    readyState = 0;
    withCredentials = false;
    private record: RecordedXhr | undefined;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};

    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.url = url;
      this.readyState = 1;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }

    abort() {
      if (this.record) this.record.aborted = true;
      this.dispatchEvent(new Event('abort'));
    }

    send(body?: unknown) {
      const record: RecordedXhr = {
        method: this.method,
        url: this.url,
        withCredentials: this.withCredentials,
        headers: this.headers,
        body,
        form: body instanceof FormData ? body : undefined,
        aborted: false,
      };
      this.record = record;
      requests.push(record);
      void this.respond(record);
    }

    private async respond(record: RecordedXhr) {
      const handler = routes[`${record.method} ${record.url}`];
      const result: XhrMockResponse =
        handler === undefined
          ? { status: 404, text: 'Not Found' }
          : typeof handler === 'function'
            ? await handler(record)
            : handler;
      await Promise.resolve();
      if (record.aborted) return;
      if (result.networkError) {
        this.dispatchEvent(new Event('error'));
        return;
      }
      for (const [loaded, total] of result.progress ?? []) {
        const event = new Event('progress') as Event & { loaded: number; total: number; lengthComputable: boolean };
        Object.assign(event, { loaded, total, lengthComputable: true });
        this.upload.dispatchEvent(event);
      }
      this.status = result.status ?? 200;
      this.statusText = result.statusText ?? '';
      this.responseText = result.text ?? (result.body === undefined ? '' : JSON.stringify(result.body));
      this.readyState = 4;
      this.dispatchEvent(new Event('load'));
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return requests;
}
