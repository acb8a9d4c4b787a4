/**
 * The blob stores a chaos run writes to, each behind a fault proxy: S3 as a local S3-compatible server (s3rver, as the
 * storage tests start it) and Drive as the local stand-in the Drive tests use.
 */
import { join } from 'node:path';
import { startFakeGoogle } from '../../services/storage/test/support/fake-google.js';
import { startTestS3 } from '../../services/storage/test/support/s3.js';
import { localBlobLister, type BlobLister } from './checks.js';

/** How s3rver names the file of an object's bytes. */
const S3RVER_OBJECT = '._S3rver_object';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

export interface ChaosBlobStore {
  name: string;
  /** The storage service's settings for it, through the proxy. */
  env: Record<string, string>;
  proxy: FaultProxy;
  list: BlobLister;
  close(): Promise<void>;
}

export async function startS3Store(): Promise<ChaosBlobStore> {
  const s3 = await startTestS3('chaos');
  const proxy = await startFaultProxy({ host: '127.0.0.1', port: s3.port });
  // What the bucket holds, read from s3rver's directory: a half-written object counts too, and s3rver's own listing
  // answers 500 when an object lacks its metadata file.
  const objects = localBlobLister(join(s3.directory, 'chaos'));
  return {
    name: 'S3 (s3rver)',
    env: { ...s3.env, STORAGE_TYPE: 'minio', S3_PORT: String(proxy.port) },
    proxy,
    async list() {
      const files = await objects();
      return new Set([...files].flatMap((file) => (file.endsWith(S3RVER_OBJECT) ? [file.slice(0, -S3RVER_OBJECT.length)] : [])));
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
