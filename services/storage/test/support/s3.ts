import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials. */
export const S3RVER_KEY = 'S3RVER';

export interface TestS3 {
  port: number;
  /** Where s3rver keeps the objects: `<directory>/<bucket>/<key>._S3rver_object`. */
  directory: string;
  /** The variables that point the storage service at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on a free loopback port, keeping its objects in a temporary directory. */
export async function startTestS3(bucket = 'snapcracks'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'storage-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  return {
    port,
    directory,
    env: {
      S3_ENDPOINT: '127.0.0.1',
      S3_PORT: String(port),
      S3_USE_SSL: 'false',
      S3_ACCESS_KEY: S3RVER_KEY,
      S3_SECRET_KEY: S3RVER_KEY,
      S3_BUCKET: bucket,
    },
    async stop() {
      // The client's keep-alive sockets would hold close() open.
      const closing = server.close();
      server.httpServer?.closeAllConnections();
      await closing;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
