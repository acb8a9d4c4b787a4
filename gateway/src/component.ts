import type { ComponentModule } from '@snapcracks/kit';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { gatewayDatabase, startGateway } from './gateway.js';
import { oidcSettingsFrom, type OidcSettings } from './oidc.js';

/**
 * The gateway as a component the kit runs like any service. Its settings come from the environment unless given; the
 * all-in-one process passes the identity provider it started and, for `pnpm dev`, Vite's root.
 */
export function gatewayComponent(options: { config?: GatewayConfig; oidc?: OidcSettings | undefined; viteRoot?: string | undefined } = {}): ComponentModule {
  return {
    name: 'gateway',
    protocol: 'http',
    database: gatewayDatabase,
    async start(platform, listen) {
      const config = { ...(options.config ?? loadGatewayConfig()), HOST: listen.host, PORT: listen.port };
      const oidc = options.oidc ?? oidcSettingsFrom(config, platform.nodeEnv);
      return startGateway(platform, config, { oidc, ...(options.viteRoot ? { viteRoot: options.viteRoot } : {}) });
    },
  };
}
