/**
 * The blob stores a chaos run writes to, each behind a fault proxy: S3 as a local S3-compatible server (s3rver, as the
 * storage tests start it) and Drive as the local stand-in the Drive tests use.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startFakeGoogle } from '../../services/storage/test/support/fake-google.js';
import { startTestS3, S3RVER_KEY } from '../../services/storage/test/support/s3.js';
import type { BlobLister } from './checks.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

export interface ChaosBlobStore {
  name: string;
  /** The storage service's settings for it, through the proxy. */
  env: Record<string, string>;
  proxy: FaultProxy;
  list: BlobLister;
  close(): Promise<void>;
}

interface MinioClient {
  listObjectsV2(bucket: string, prefix: string, recursive: boolean): AsyncIterable<{ name?: string }>;
}
type MinioModule = { Client: new (options: Record<string, unknown>) => MinioClient };

export async function startS3Store(): Promise<ChaosBlobStore> {
  const s3 = await startTestS3('chaos');
  const proxy = await startFaultProxy({ host: '127.0.0.1', port: s3.port });
  // The storage service's own S3 client, to list what the bucket holds (straight to s3rver, past the proxy).
  const { Client } = createRequire(fileURLToPath(new URL('../../services/storage/package.json', import.meta.url)))('minio') as MinioModule;
  const client = new Client({ endPoint: '127.0.0.1', port: s3.port, useSSL: false, accessKey: S3RVER_KEY, secretKey: S3RVER_KEY, pathStyle: true, region: 'us-east-1' });
  return {
    name: 'S3 (s3rver)',
    env: { ...s3.env, STORAGE_TYPE: 'minio', S3_PORT: String(proxy.port) },
    proxy,
    async list() {
      const names = new Set<string>();
      try {
        for await (const object of client.listObjectsV2('chaos', 'photos/', true)) if (object.name) names.add(object.name);
      } catch (error) {
        if ((error as { code?: string }).code !== 'NoSuchBucket') throw error;
      }
      return names;
    },
    async close() {
      await proxy.close();
      await s3.stop();
    },
  };
}

export async function startDriveStore(): Promise<ChaosBlobStore> {
  const google = await startFakeGoogle();
  const { port } = new URL(google.url);
  const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(port) });
  const viaProxy = (value: string) => value.replace(`:${port}`, `:${proxy.port}`);
  return {
    name: 'Drive (local stand-in)',
    env: { ...Object.fromEntries(Object.entries(google.env).map(([name, value]) => [name, viaProxy(value)])), STORAGE_TYPE: 'drive' },
    proxy,
    async list() {
      const paths = [...google.files.values()].map((file) => file.appProperties.snapcracksPath).filter((path): path is string => Boolean(path));
      return new Set(paths.filter((path) => path.startsWith('photos/')));
    },
    async close() {
      await proxy.close();
      await google.close();
    },
  };
}
