import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '@snapcracks/kit';

declare module 'fastify' {
  interface FastifyRequest {
    /** Answered with a page every visitor shares (the public page cache). */
    sharedPage: boolean;
  }
}

/**
 * The gateway's access log: one line per answered request, "request completed" with the method, path, client address,
 * status, duration and the request and trace ids, where Fastify writes two ("incoming request" too). Shared public
 * pages (gallery pages of everyone's filters, previews, the stats strip) that succeed write theirs at debug: they are
 * most of the traffic and the cheapest of it, and http.server.request.duration (by route and status), the page
 * cache's hit and miss counter and their trace spans already say everything about them.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    const level = request.sharedPage && reply.statusCode < 400 ? 'debug' : 'info';
    // pino's level check before the line is built: at info, a shared page costs this comparison only.
    if ((reply.log as Partial<Logger>).isLevelEnabled?.(level) ?? true) reply.log[level]({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
