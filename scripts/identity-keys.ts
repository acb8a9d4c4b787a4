/**
 * Makes an Ed25519 key pair for every component (the gateway and each service), for the separate processes of
 * microservices mode and Kubernetes:
 *   pnpm identity:keys            IDENTITY_PUBLIC_KEYS=… and <COMPONENT>_IDENTITY_PRIVATE_KEY=… lines
 *   pnpm identity:keys --kubectl  the same as `--from-literal=…` arguments of `kubectl create secret generic`
 * Each process gets its own private key as IDENTITY_PRIVATE_KEY and everyone's IDENTITY_PUBLIC_KEYS.
 */
import { COMPONENT_NAMES } from '../services/kit/src/component.js';
import { IdentityKeyring } from '../services/kit/src/grpc/identity.js';

const keys = IdentityKeyring.generate();
const entries: [string, string][] = [
  ['IDENTITY_PUBLIC_KEYS', keys.publicKeysConfig()],
  ...COMPONENT_NAMES.map((name): [string, string] => [`${name.toUpperCase()}_IDENTITY_PRIVATE_KEY`, keys.privateKeyConfig(name)]),
];
const kubectl = process.argv.includes('--kubectl');
// Base64 and "name=key,…" need no shell quoting.
console.log(entries.map(([name, value]) => (kubectl ? `--from-literal=${name}=${value}` : `${name}=${value}`)).join(kubectl ? ' ' : '\n'));
