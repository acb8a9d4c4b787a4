import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { SERVICE_NAMES } from '../../services/kit/src/component.js';

/** Everything that owns a database schema: the seven services and the gateway (sessions). */
export const COMPONENTS: string[] = [...SERVICE_NAMES, 'gateway'];

const root = fileURLToPath(new URL('../..', import.meta.url));
export const componentDir = (component: string): string => (component === 'gateway' ? join(root, 'gateway') : join(root, 'services', component));
