import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { drive, type drive_v3 } from '@googleapis/drive';
import type { DriveSettings } from '../config.js';
import { createOAuthClient, googleStatus } from '../google-oauth.js';
import { assertSafePath, type BlobBackend, type BlobContent, type BlobRef } from './backend.js';

/** Drive files carry the blob path here, so a file whose id never reached the blobs table can still be found. */
const PATH_PROPERTY = 'snapcracksPath';

/**
 * Blobs as files in Google Drive (scope drive.file: only files this app created), in GOOGLE_DRIVE_FOLDER_ID when
 * set. Drive names files by id, so the id is kept in the blobs table; the path is kept on the file too.
 */
export class DriveBlobBackend implements BlobBackend {
  readonly type = 'drive' as const;
  private readonly drive: drive_v3.Drive;
  /** googleapis applies a global rootUrl to plain calls but not to media uploads, so it is passed per call too. */
  private readonly callOptions: { rootUrl?: string };

  constructor(private readonly settings: DriveSettings) {
    const oauth = createOAuthClient(settings);
    oauth.setCredentials({ refresh_token: settings.refreshToken });
    const rootUrl = settings.apiRootUrl ? settings.apiRootUrl.replace(/\/*$/, '/') : undefined;
    this.callOptions = rootUrl ? { rootUrl } : {};
    this.drive = drive({ version: 'v3', auth: oauth, ...(rootUrl ? { rootUrl } : {}), retry: false });
  }

  put(path: string, data: Buffer, contentType: string): Promise<{ driveFileId?: string }> {
    return this.putStream(path, Readable.from([data]), contentType);
  }

  async putStream(path: string, data: Readable, contentType: string): Promise<{ driveFileId?: string }> {
    assertSafePath(path);
    const response = await this.drive.files.create(
      {
        requestBody: {
          name: path.split('/').join('_'),
          mimeType: contentType,
          appProperties: { [PATH_PROPERTY]: path },
          ...(this.settings.folderId ? { parents: [this.settings.folderId] } : {}),
        },
        media: { mimeType: contentType, body: data },
        fields: 'id',
        supportsAllDrives: true,
      },
      this.callOptions,
    );
    const id = response.data.id;
    if (!id) throw new Error('Google Drive did not return the new file id');
    return { driveFileId: id };
  }

  async get(ref: BlobRef): Promise<BlobContent | null> {
    const fileId = ref.driveFileId ?? (await this.findIds(ref.path))[0];
    if (!fileId) return null;
    try {
      const response = await this.drive.files.get(
        { fileId, alt: 'media', supportsAllDrives: true },
        { ...this.callOptions, responseType: 'stream' },
      );
      const body = response.data as unknown as Readable | WebReadableStream;
      const stream = body instanceof Readable ? body : Readable.fromWeb(body);
      const headers = response.headers as unknown as { get?(name: string): string | null } & Record<string, unknown>;
      const length = Number(typeof headers.get === 'function' ? headers.get('content-length') : headers['content-length']);
      return { stream, size: Number.isFinite(length) ? length : undefined };
    } catch (error) {
      if (googleStatus(error) === 404) return null;
      throw error;
    }
  }

  async delete(ref: BlobRef): Promise<void> {
    const ids = ref.driveFileId ? [ref.driveFileId] : await this.findIds(ref.path);
    for (const fileId of ids) {
      try {
        await this.drive.files.delete({ fileId, supportsAllDrives: true }, this.callOptions);
      } catch (error) {
        if (googleStatus(error) !== 404) throw error;
      }
    }
  }

  /** Files this app made for `path` (a blob whose upload finished but whose id was never recorded). */
  private async findIds(path: string): Promise<string[]> {
    assertSafePath(path);
    const response = await this.drive.files.list(
      {
        q: `appProperties has { key='${PATH_PROPERTY}' and value='${path}' } and trashed = false`,
        fields: 'files(id)',
        spaces: 'drive',
        pageSize: 10,
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
      },
      this.callOptions,
    );
    return (response.data.files ?? []).flatMap((file) => (file.id ? [file.id] : []));
  }
}
