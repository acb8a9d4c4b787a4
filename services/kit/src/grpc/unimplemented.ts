import { status, type ServiceDefinition } from '@grpc/grpc-js';
import { DomainError } from '../errors.js';
import type { Handlers } from './server.js';

/** Handlers answering UNIMPLEMENTED, for RPCs that are declared in the contract but not built yet. */
export function unimplemented<S>(definition: ServiceDefinition): Handlers<S> {
  const handlers: Record<string, () => Promise<never>> = {};
  for (const [method, spec] of Object.entries(definition)) {
    handlers[method] = async () => {
      throw new DomainError(status.UNIMPLEMENTED, `${spec.path} is not available yet`);
    };
  }
  return handlers as unknown as Handlers<S>;
}
