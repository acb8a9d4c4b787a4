import { join } from 'node:path';
import { z } from 'zod';
import { envBoolean, optionalString, parseConfig } from '@snapcracks/kit';
import { IMAGE_WORK_NICENESS } from './media/background-priority.js';
import { DEFAULT_MAX_INPUT_PIXELS, DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_MEMBER } from './media/image-limits.js';

/** How each backend names itself in blob keys (`local:…`, `s3:…`, `drive:…`) and in the blobs table. */
export type StorageType = 'local' | 's3' | 'drive';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalPort = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional());

const schema = z
  .object({
    /** Where new blobs go: local disk, an S3-compatible store (MinIO) or Google Drive. */
    STORAGE_TYPE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['local', 'minio', 'drive']).default('local')),
    /** Local blobs live here; default `<data dir>/uploads`. */
    STORAGE_DIR: optionalString,
    S3_ENDPOINT: optionalString,
    S3_PORT: optionalPort,
    S3_USE_SSL: envBoolean(false),
    S3_ACCESS_KEY: optionalString,
    S3_SECRET_KEY: optionalString,
    S3_BUCKET: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('snapcracks')),
    S3_REGION: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('us-east-1')),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    GOOGLE_REFRESH_TOKEN: optionalString,
    GOOGLE_DRIVE_FOLDER_ID: optionalString,
    /** Overrides https://www.googleapis.com/ (tests point it at a local fake). */
    GOOGLE_API_ROOT_URL: optionalUrl,
    /** Overrides Google's OAuth endpoints: the consent page is `<url>/auth`, tokens come from `<url>/token`. */
    GOOGLE_OAUTH_URL: optionalUrl,
    /**
     * Threads that decode and encode images, off the event loop. Two by default, and one member holds one at most
     * (media/fair-queue.ts): libvips already spreads each photo over every core, so the second barely adds throughput,
     * but it is what lets another member's photo start at once while one member's large one runs, rather than wait
     * for its end (`pnpm bench:flood`: 15× a photo's idle time with one thread under a flood of 49 MP images, 1.2× with
     * two). It costs a second full-size image in memory: the chart's storage limit is measured for two.
     */
    IMAGE_WORKERS: z.preprocess((v) => (v === '' || v === undefined ? 2 : v), z.coerce.number().int().min(1).max(64)),
    /**
     * The niceness (Linux CPU priority, 0–19) of the process that does the image work. Higher leaves more of a busy
     * machine to the calls everyone else makes, and slows uploads down more while it is busy (media/background-priority.ts).
     */
    IMAGE_NICENESS: z.preprocess((v) => (v === '' || v === undefined ? IMAGE_WORK_NICENESS : v), z.coerce.number().int().min(0).max(19)),
    /**
     * Larger images (width × height) are refused from their header with a 400 saying the limit, before any pixel is
     * decoded. The default, 50 MP, takes any phone's photo; the chart's memory limit for storage is measured for it
     * (`pnpm bench:flood`): raise both together.
     */
    IMAGE_MAX_PIXELS: z.preprocess((v) => (v === '' || v === undefined ? DEFAULT_MAX_INPUT_PIXELS : v), z.coerce.number().int().min(1_000_000).max(1_000_000_000)),
    /** Images waiting for a media thread, everyone's together; past it an upload is refused at once (503, Retry-After). */
    IMAGE_QUEUE_LIMIT: z.preprocess((v) => (v === '' || v === undefined ? DEFAULT_MAX_QUEUED : v), z.coerce.number().int().min(1).max(10_000)),
    /** Images one member may have waiting, so that no member can fill the queue for the others. */
    IMAGE_QUEUE_PER_MEMBER: z.preprocess((v) => (v === '' || v === undefined ? DEFAULT_MAX_QUEUED_PER_MEMBER : v), z.coerce.number().int().min(1).max(10_000)),
  })
  .superRefine((config, ctx) => {
    const require = (names: (keyof typeof config)[], why: string) => {
      for (const name of names) if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: `required ${why}` });
    };
    if (config.STORAGE_TYPE === 'minio') require(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'], 'when STORAGE_TYPE=minio');
    if (config.STORAGE_TYPE === 'drive') require(['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_REFRESH_TOKEN'], 'when STORAGE_TYPE=drive');
  });

type RawConfig = z.output<typeof schema>;

export interface S3Settings {
  endPoint: string;
  port?: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface GoogleOAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Overrides of Google's consent page and token endpoint. */
  authUrl?: string;
  tokenUrl?: string;
}

export interface DriveSettings extends GoogleOAuthSettings {
  refreshToken: string;
  folderId?: string;
  apiRootUrl?: string;
}

export interface StorageConfig {
  /** Where new blobs are written. */
  storageType: StorageType;
  localDir: string;
  /** Present when the S3 variables are set, whichever backend is current, so older `s3:` blobs stay readable. */
  s3?: S3Settings;
  /** The OAuth client, for the admin's Drive authorization flow. */
  googleOAuth?: GoogleOAuthSettings;
  /** Present when the OAuth client and a refresh token are set. */
  drive?: DriveSettings;
  imageWorkers: number;
  imageNiceness: number;
  /** IMAGE_MAX_PIXELS. */
  imageMaxPixels: number;
  /** IMAGE_QUEUE_LIMIT and IMAGE_QUEUE_PER_MEMBER. */
  imageQueue: { max: number; perMember: number };
}

/** Parses the storage service's environment; a missing variable for the chosen backend is a one-line ConfigError. */
export function loadStorageConfig(dataDir: string, env: Record<string, string | undefined> = process.env): StorageConfig {
  return toStorageConfig(parseConfig(schema, env), dataDir);
}

function toStorageConfig(raw: RawConfig, dataDir: string): StorageConfig {
  const s3: S3Settings | undefined =
    raw.S3_ENDPOINT && raw.S3_ACCESS_KEY && raw.S3_SECRET_KEY
      ? {
          endPoint: raw.S3_ENDPOINT,
          ...(raw.S3_PORT !== undefined ? { port: raw.S3_PORT } : {}),
          useSSL: raw.S3_USE_SSL,
          accessKey: raw.S3_ACCESS_KEY,
          secretKey: raw.S3_SECRET_KEY,
          bucket: raw.S3_BUCKET,
          region: raw.S3_REGION,
        }
      : undefined;
  const oauthBase = raw.GOOGLE_OAUTH_URL?.replace(/\/+$/, '');
  const googleOAuth: GoogleOAuthSettings | undefined =
    raw.GOOGLE_CLIENT_ID && raw.GOOGLE_CLIENT_SECRET
      ? {
          clientId: raw.GOOGLE_CLIENT_ID,
          clientSecret: raw.GOOGLE_CLIENT_SECRET,
          ...(oauthBase ? { authUrl: `${oauthBase}/auth`, tokenUrl: `${oauthBase}/token` } : {}),
        }
      : undefined;
  const drive: DriveSettings | undefined =
    googleOAuth && raw.GOOGLE_REFRESH_TOKEN
      ? {
          ...googleOAuth,
          refreshToken: raw.GOOGLE_REFRESH_TOKEN,
          ...(raw.GOOGLE_DRIVE_FOLDER_ID ? { folderId: raw.GOOGLE_DRIVE_FOLDER_ID } : {}),
          ...(raw.GOOGLE_API_ROOT_URL ? { apiRootUrl: raw.GOOGLE_API_ROOT_URL } : {}),
        }
      : undefined;
  return {
    storageType: raw.STORAGE_TYPE === 'minio' ? 's3' : raw.STORAGE_TYPE,
    localDir: raw.STORAGE_DIR ?? join(dataDir, 'uploads'),
    ...(s3 ? { s3 } : {}),
    ...(googleOAuth ? { googleOAuth } : {}),
    ...(drive ? { drive } : {}),
    imageWorkers: raw.IMAGE_WORKERS,
    imageNiceness: raw.IMAGE_NICENESS,
    imageMaxPixels: raw.IMAGE_MAX_PIXELS,
    imageQueue: { max: raw.IMAGE_QUEUE_LIMIT, perMember: raw.IMAGE_QUEUE_PER_MEMBER },
  };
}
