import { status, type ServiceDefinition } from '@grpc/grpc-js';
import { callErrorToServiceError } from '../grpc/batch-items.js';
import type { Handlers } from '../grpc/server.js';

/**
 * A test's stand-in for a service: the handlers it gives, and for every other method of the definition one that
 * answers UNIMPLEMENTED naming the method, so a test that reaches a method it did not stub finds out at once.
 */
export function stubHandlers<S>(definition: ServiceDefinition, given: Partial<Handlers<S>>): Handlers<S> {
  const handlers: Record<string, unknown> = {};
  for (const [method, spec] of Object.entries(definition)) {
    handlers[method] = async () => {
      throw callErrorToServiceError({ code: status.UNIMPLEMENTED, message: `${spec.path} is not stubbed in this test` });
    };
  }
  return { ...handlers, ...given } as Handlers<S>;
}
