import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLogFields } from './log-serializers.js';
import { MEMBER, gatewayHarness, type GatewayHarness } from './testing/gateway-harness.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; path: string };
  res?: { statusCode: number };
  responseTime?: number;
}

const INFO = 30;
const DEBUG = 20;

/** The gateway with its log lines kept, at `level`, with the serializers the running gateway logs requests with. */
async function loggedGateway(level: 'info' | 'debug') {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const harness = await gatewayHarness({
    logger: pino({ level, serializers: { req: requestLogFields } }, sink),
    services: {
      photo: { getGalleryPage: () => ({ photos: [], total: 0, totalPages: 0 }) },
      stats: { getGalleryStats: () => ({ photoCount: 1, totalVotes: 2, ratedFourOrHigher: 1, distinctUploaders: 1 }) },
    },
  });
  return { harness, lines };
}

describe('the access log', () => {
  let harness: GatewayHarness | undefined;
  afterEach(async () => harness?.close());

  it('writes one line per request at info, with its method, path without the query, status, duration and request id', async () => {
    const logged = await loggedGateway('info');
    harness = logged.harness;
    const cookie = await harness.signIn(MEMBER);
    logged.lines.length = 0;

    const answer = await harness.inject({ method: 'GET', url: '/api/gallery/need-your-vote?page=1&limit=9', cookie });

    expect(answer.statusCode).toBe(200);
    expect(logged.lines).toHaveLength(1);
    const [line] = logged.lines;
    expect(line).toMatchObject({ level: INFO, msg: 'request completed', req: { method: 'GET', path: '/api/gallery/need-your-vote' }, res: { statusCode: 200 } });
    // The request as the gateway's serializer writes it, and the answer as its status only: never headers or the body.
    expect(line!.req).toEqual({ method: 'GET', path: '/api/gallery/need-your-vote', ip: '127.0.0.1' });
    expect(line!.res).toEqual({ statusCode: 200 });
    expect(line!.reqId).toBeTruthy();
    expect(line!.responseTime).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(line)).not.toContain('limit=9');
  });

  it('keeps shared public pages that succeed out of the info log, and logs those that fail', async () => {
    const logged = await loggedGateway('info');
    harness = logged.harness;

    for (const url of ['/api/gallery/top-rated?page=1&limit=9', '/api/gallery/top-rated?page=1&limit=9', '/api/stats/gallery']) {
      expect((await harness.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect(logged.lines).toEqual([]);

    expect((await harness.inject({ method: 'GET', url: '/api/gallery/top-rated?page=0' })).statusCode).toBe(400);
    expect((await harness.inject({ method: 'GET', url: '/api/gallery/no-such-filter' })).statusCode).toBe(404);
    expect(logged.lines.map((l) => [l.level, l.res?.statusCode])).toEqual([
      [INFO, 400],
      [INFO, 404],
    ]);
  });

  it('writes shared pages at debug', async () => {
    const logged = await loggedGateway('debug');
    harness = logged.harness;

    await harness.inject({ method: 'GET', url: '/api/stats/gallery' });

    const completed = logged.lines.filter((l) => l.msg === 'request completed');
    expect(completed).toMatchObject([{ level: DEBUG, req: { path: '/api/stats/gallery' }, res: { statusCode: 200 } }]);
  });
});
