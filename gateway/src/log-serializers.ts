/**
 * How a request appears in the gateway's logs: method, path and client address. Never the query string:
 * it can carry one-time secrets (the sign-in callback's authorization code). Never headers: cookies.
 */
export function requestLogFields(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, path: request.url.split('?')[0], ip: request.ip };
}
