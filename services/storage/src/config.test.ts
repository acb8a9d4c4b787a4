import { describe, expect, it } from 'vitest';
import { ConfigError } from '@snapcracks/kit';
import { loadStorageConfig } from './config.js';
import { IMAGE_WORK_NICENESS } from './media/background-priority.js';

describe('storage config', () => {
  it('defaults to local disk under the data directory, one image thread at background priority', () => {
    expect(loadStorageConfig('/var/data', {})).toEqual({
      storageType: 'local',
      localDir: '/var/data/uploads',
      imageWorkers: 2,
      imageNiceness: IMAGE_WORK_NICENESS,
      imageMaxPixels: 50_000_000,
      imageQueue: { max: 32, perMember: 4 },
    });
  });

  it('keeps S3 and Drive settings whenever they are given, so older blobs stay readable', () => {
    const config = loadStorageConfig('/d', {
      STORAGE_TYPE: 'minio',
      STORAGE_DIR: '/blobs',
      S3_ENDPOINT: 'minio.local',
      S3_PORT: '9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_REFRESH_TOKEN: 'refresh',
      GOOGLE_OAUTH_URL: 'http://127.0.0.1:1/oauth/',
      IMAGE_WORKERS: '4',
      IMAGE_NICENESS: '0',
      IMAGE_MAX_PIXELS: '24000000',
      IMAGE_QUEUE_LIMIT: '8',
      IMAGE_QUEUE_PER_MEMBER: '2',
    });
    expect(config).toMatchObject({
      storageType: 's3',
      localDir: '/blobs',
      s3: { endPoint: 'minio.local', port: 9000, useSSL: false, accessKey: 'a', secretKey: 'b', bucket: 'snapcracks', region: 'us-east-1' },
      googleOAuth: { clientId: 'id', authUrl: 'http://127.0.0.1:1/oauth/auth', tokenUrl: 'http://127.0.0.1:1/oauth/token' },
      drive: { refreshToken: 'refresh' },
      imageWorkers: 4,
      imageNiceness: 0,
      imageMaxPixels: 24_000_000,
      imageQueue: { max: 8, perMember: 2 },
    });
  });

  it('stops with one line naming what the chosen backend is missing', () => {
    expect(() => loadStorageConfig('/d', { STORAGE_TYPE: 'minio', S3_ENDPOINT: 'x' })).toThrow(
      new ConfigError('Invalid configuration: S3_ACCESS_KEY: required when STORAGE_TYPE=minio; S3_SECRET_KEY: required when STORAGE_TYPE=minio'),
    );
    expect(() => loadStorageConfig('/d', { STORAGE_TYPE: 'drive', GOOGLE_CLIENT_ID: 'x', GOOGLE_CLIENT_SECRET: 'y' })).toThrow(
      'Invalid configuration: GOOGLE_REFRESH_TOKEN: required when STORAGE_TYPE=drive',
    );
    expect(() => loadStorageConfig('/d', { STORAGE_TYPE: 'ftp' })).toThrow(/^Invalid configuration: STORAGE_TYPE: /);
    expect(() => loadStorageConfig('/d', { IMAGE_WORKERS: '0' })).toThrow(/IMAGE_WORKERS/);
    expect(() => loadStorageConfig('/d', { IMAGE_NICENESS: '20' })).toThrow(/IMAGE_NICENESS/);
    expect(() => loadStorageConfig('/d', { IMAGE_NICENESS: '-5' })).toThrow(/IMAGE_NICENESS/);
  });
});
