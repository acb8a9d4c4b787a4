// Runs the development identity provider on its own: `pnpm --filter @snapcracks/dev-idp start`.
import { randomBytes } from 'node:crypto';

import { parseDevIdpEnv } from './env.js';
import { PRODUCTION_REFUSAL, startDevIdentityProvider, type DevIdpLogger } from './index.js';

/** One JSON line per event, like the services' logs, without pulling in their logging stack. */
const logger: DevIdpLogger = {
  info: (fields, message) => console.log(JSON.stringify({ level: 'info', name: 'dev-idp', msg: message, ...fields })),
  error: (fields, message) => console.error(JSON.stringify({ level: 'error', name: 'dev-idp', msg: message, ...fields })),
};

async function main(): Promise<void> {
  if (process.env.NODE_ENV === 'production') {
    // Checked here too so the refusal comes before any other configuration complaint.
    throw new Error(PRODUCTION_REFUSAL);
  }
  const env = parseDevIdpEnv(process.env);

  let clientSecret = env.clientSecret;
  if (clientSecret === undefined) {
    // Printed on purpose: it is only good for this run, and the app needs the same value as OIDC_CLIENT_SECRET.
    clientSecret = randomBytes(24).toString('base64url');
    logger.info({ clientSecret }, 'OIDC_CLIENT_SECRET is not set; using a random secret for this run');
  }

  const idp = await startDevIdentityProvider({
    port: env.port,
    host: env.host,
    clients: [
      {
        clientId: env.clientId,
        clientSecret,
        redirectUris: [env.redirectUri],
        postLogoutRedirectUris: [env.postLogoutRedirectUri],
      },
    ],
    logger,
  });
  logger.info({ issuer: idp.issuer }, `set OIDC_ISSUER=${idp.issuer} to use this provider`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    idp.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
