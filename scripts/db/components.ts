import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Everything that owns a database schema: the seven services and the gateway (sessions). */
export const COMPONENTS = ['auth', 'photo', 'vote', 'moderation', 'stats', 'support', 'storage', 'gateway'];

const root = fileURLToPath(new URL('../..', import.meta.url));
export const componentDir = (component: string): string => (component === 'gateway' ? join(root, 'gateway') : join(root, 'services', component));
