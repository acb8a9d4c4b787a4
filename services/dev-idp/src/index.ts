import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors, Provider } from 'oidc-provider';

import { DevAccountStore } from './accounts.js';
import { sendHtml } from './http-io.js';
import { createInteractionRoutes, matchInteraction } from './interactions.js';
import { generateCookieKeys, generateSigningJwks } from './keys.js';
import { logError, silentLogger, type DevIdpLogger } from './logger.js';
import { errorPage } from './pages.js';
import { buildProviderConfiguration, type DevClient } from './provider-config.js';

export type { DevClient } from './provider-config.js';
export type { DevIdpLogger } from './logger.js';

export interface DevIdentityProviderOptions {
  /** TCP port; 0 picks a free one (tests). */
  port?: number;
  /** Loopback address to listen on; default 127.0.0.1. Inside a container also 0.0.0.0 (see assertLoopback). */
  host?: string;
  clients: DevClient[];
  logger?: DevIdpLogger;
}

export interface RunningDevIdentityProvider {
  /** The issuer URL, e.g. `http://127.0.0.1:8081`: give it to the app as OIDC_ISSUER. */
  issuer: string;
  close(): Promise<void>;
}

export const PRODUCTION_REFUSAL =
  'The development identity provider must not run in production (NODE_ENV=production). Set OIDC_ISSUER to a real provider.';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = '0.0.0.0';
const insideContainer = () => process.env.container === 'podman' && existsSync('/run/.containerenv');

/**
 * Anyone who can reach this provider can sign in as anyone, so it never listens beyond this machine. Inside a
 * podman container (podman sets `container=podman` and /run/.containerenv) 0.0.0.0 is that container's own network,
 * which the host reaches only through a published port (`pnpm start:containers` publishes it on 127.0.0.1): a port
 * published on the host's loopback arrives on the container's network address, never on its loopback.
 */
function assertLoopback(host: string): void {
  if (host === WILDCARD && insideContainer()) return;
  if (!LOOPBACK_HOSTS.has(host) && !/^127(\.\d{1,3}){3}$/.test(host)) {
    throw new Error(`The development identity provider only listens on loopback; "${host}" is not a loopback address.`);
  }
}

async function assertClientValid(provider: Provider, clientId: string): Promise<void> {
  try {
    await provider.Client.find(clientId);
  } catch (error) {
    // oidc-provider's own message is only the error code; its description says what is wrong.
    const detail = error instanceof errors.OIDCProviderError ? error.error_description : undefined;
    throw new Error(`Invalid client "${clientId}": ${detail ?? String(error)}`, { cause: error });
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function issuerFor({ address, family, port }: AddressInfo): string {
  // Listening on a container's every address, it is still reached as this machine's loopback (the published port).
  if (address === WILDCARD) return `http://127.0.0.1:${port}`;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/**
 * Starts a local OpenID Connect provider whose sign-in page accepts any email, with no password and no
 * consent step. It is what `pnpm start` runs when no real OIDC_ISSUER is configured.
 */
export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<RunningDevIdentityProvider> {
  if (process.env.NODE_ENV === 'production') throw new Error(PRODUCTION_REFUSAL);
  const { port = 0, host = '127.0.0.1', clients, logger = silentLogger } = options;
  assertLoopback(host);
  if (clients.length === 0) throw new Error('The development identity provider needs at least one client.');

  const signingKeys = await generateSigningJwks();
  const cookieKeys = generateCookieKeys();
  const accounts = new DevAccountStore();

  // Listen first: with port 0 the issuer URL is only known once the OS has picked the port.
  const server = createServer();
  const issuer = issuerFor(await listen(server, port, host));

  let provider: Provider;
  try {
    provider = new Provider(issuer, buildProviderConfiguration({ clients, accounts, signingKeys, cookieKeys }));
    // oidc-provider checks static clients only when first used; a bad redirect URI should fail the start instead.
    await Promise.all(clients.map((client) => assertClientValid(provider, client.clientId)));
  } catch (error) {
    server.close(); // do not leave the port taken
    throw error;
  }
  provider.on('server_error', (_ctx, error) => logError(logger, { err: error.message }, 'identity provider error'));
  provider.on('end_session.success', () => logger.info({}, 'development sign-out'));

  const handleInteraction = createInteractionRoutes(provider, accounts, logger);
  const handleProtocol = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const uid = matchInteraction((req.url ?? '/').split('?', 1)[0] ?? '/');
    if (uid === undefined) {
      void handleProtocol(req, res);
      return;
    }
    handleInteraction(req, res, uid).catch((error: unknown) => {
      logError(logger, { err: error instanceof Error ? error.message : String(error) }, 'sign-in page failed');
      if (!res.headersSent) sendHtml(res, 500, errorPage('Sign-in failed', 'Something went wrong. Try signing in again.'));
      else res.destroy();
    });
  });

  logger.info({ issuer, clients: clients.map((client) => client.clientId) }, 'development identity provider listening');

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Browsers and fetch keep connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}
