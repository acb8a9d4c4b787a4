/**
 * When a launcher (`pnpm start:split`, `pnpm start:containers`) may say the product is running: the gateway's
 * `/readyz` answers, every component's internal port answers (a service opens it only once it serves), and the
 * gateway's own connections reach every service (`/readyz/detail` on its internal port says SERVING for each). The
 * gateway alone being ready is not enough: the services start beside it, and on a busy machine a first sign-in would
 * meet an auth service that is still starting.
 */
export interface ProductEndpoints {
  /** The gateway's public readiness, e.g. http://127.0.0.1:8080/readyz. */
  readyz: string;
  /** The gateway's internal port, e.g. http://127.0.0.1:9464. */
  gatewayInternal: string;
  /** Every component's internal port by name (each replica its own). */
  internals: Record<string, string>;
}

/** What is not ready yet, in words; empty when the product is ready. */
export async function notReady(endpoints: ProductEndpoints): Promise<string[]> {
  const answers = async (url: string) =>
    fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => {
        void response.body?.cancel();
        return response.ok;
      },
      () => false,
    );
  const [gateway, internals, detail] = await Promise.all([
    answers(endpoints.readyz),
    Promise.all(Object.entries(endpoints.internals).map(async ([name, url]) => [name, await answers(`${url}/metrics`)] as const)),
    fetch(`${endpoints.gatewayInternal}/readyz/detail`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => ((await response.json()) as { services?: Record<string, string> }).services ?? {},
      () => undefined,
    ),
  ]);
  const missing: string[] = [];
  if (!gateway) missing.push('the gateway');
  for (const [name, up] of internals) if (!up) missing.push(`${name} (not serving yet)`);
  if (!detail) missing.push("the gateway's view of the services");
  else for (const [name, status] of Object.entries(detail)) if (status !== 'SERVING') missing.push(`${name} from the gateway (${status})`);
  return missing;
}

/** Waits until `notReady` is empty; throws what is still missing after `timeoutMs`. */
export async function waitUntilProductReady(endpoints: ProductEndpoints, options: { timeoutMs: number; stopped?: () => boolean }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const missing = await notReady(endpoints);
    if (missing.length === 0 || options.stopped?.()) return;
    if (Date.now() > deadline) throw new Error(`not ready after ${options.timeoutMs / 1000} s: ${missing.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
