import { performance } from 'node:perf_hooks';
import { instruments } from './instruments.js';

type RpcAttributes = {
  component: string;
  'rpc.service': string;
  'rpc.method': string;
  'rpc.grpc.status_code': number;
};

/**
 * Records the duration of calls to one method (path `/package.Service/Method`), by status code, for the server or
 * client side. The attributes of each status code are made once: a call allocates nothing for its metrics.
 */
export function rpcDurationRecorder(side: 'server' | 'client', component: string, path: string): (startedAt: number, code: number) => void {
  const [, service = '', method = ''] = path.split('/');
  const byCode: RpcAttributes[] = [];
  return (startedAt, code) => {
    const attributes = (byCode[code] ??= { component, 'rpc.service': service, 'rpc.method': method, 'rpc.grpc.status_code': code });
    const seconds = (performance.now() - startedAt) / 1000;
    const kit = instruments();
    (side === 'server' ? kit.rpcServerDuration : kit.rpcClientDuration).record(seconds, attributes);
  };
}

/** The status code of a failed call as grpc-js reports it; UNKNOWN (2) when it carries none. */
export function statusCodeOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 0 && code <= 16 ? code : 2;
}

/** Counts the calls to one method refused for their identity; a forged or replayed call shows here before anywhere else. */
export function identityRefusalCounter(component: string, path: string): { add(count: number): void } {
  const [, service = '', method = ''] = path.split('/');
  const attributes = { component, 'rpc.service': service, 'rpc.method': method };
  return { add: (count) => instruments().identityRefusals.add(count, attributes) };
}
