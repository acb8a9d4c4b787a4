/**
 * The slice of a logger the provider needs. A pino logger (e.g. the kit's) fits as it is; so does a console
 * wrapper. Only ids and outcomes are logged, never secrets or tokens.
 */
export interface DevIdpLogger {
  info(fields: Record<string, unknown>, message?: string): void;
  error?(fields: Record<string, unknown>, message?: string): void;
}

export const silentLogger: DevIdpLogger = { info() {} };

export function logError(logger: DevIdpLogger, fields: Record<string, unknown>, message: string): void {
  if (logger.error) logger.error(fields, message);
  else logger.info({ level: 'error', ...fields }, message);
}
