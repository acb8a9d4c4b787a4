import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A stand-in for the browser's EventSource (jsdom has none): it never connects; a test opens it, sends it events and
 * drops it. Installed on globalThis for one test (setup.ts unstubs globals after each).
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  /** Every stream opened since install, oldest first. */
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials: boolean;
  readyState = FakeEventSource.CONNECTING;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.instances.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server answered: the stream is open. */
  open(): void {
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }

  /** An event from the server, its data as JSON. */
  emit(type: string, data: unknown, lastEventId = ''): void {
    act(() => {
      this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
    });
  }

  /** The connection dropped; the browser is trying again (`closed`: it has given up). */
  drop({ closed = false }: { closed?: boolean } = {}): void {
    act(() => {
      this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
      this.dispatchEvent(new Event('error'));
    });
  }
}

/** Installs the fake; `latest()` is the stream opened last (the test fails if none was). */
export function installFakeEventSource() {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return {
    instances: () => FakeEventSource.instances,
    latest: () => {
      const source = FakeEventSource.instances.at(-1);
      if (!source) throw new Error('No EventSource was opened');
      return source;
    },
  };
}
