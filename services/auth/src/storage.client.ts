import type { Caller, ServiceClient } from '@snapcracks/kit';
import type { StorageServiceClient } from '@snapcracks/proto/storage/v1';

/** An avatar storage has stored: its file name under avatars/ and the faces the detector found, when it answered in time. */
export interface StoredAvatar {
  name: string;
  facesDetected: number | undefined;
}

/** What the avatar upload needs from the storage service; a fake replaces it in unit tests. */
export interface AvatarStorage {
  /** Streams the upload to storage, honouring back-pressure; if reading `chunks` fails, the storage call is cancelled. */
  storeAvatar(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredAvatar>;
  /** Deletes avatars/<name> wherever it is stored; an unknown name is fine. */
  deleteAvatar(name: string): Promise<void>;
}

/** Decoding, cropping and face detection of a 5 MB image on a busy storage service. */
const STORE_DEADLINE_MS = 60_000;
const DELETE_DEADLINE_MS = 5_000;

/** AvatarStorage over the storage service's gRPC contract. */
export class GrpcAvatarStorage implements AvatarStorage {
  constructor(private readonly client: ServiceClient<StorageServiceClient>) {}

  async storeAvatar(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredAvatar> {
    // The member's own assertion goes on with the bytes: storage stores an avatar for a member only, and queues the
    // image work under their name.
    const upload = this.client.clientStream('storeAvatar', { caller, deadlineMs: STORE_DEADLINE_MS });
    try {
      for await (const chunk of chunks) await upload.send({ chunk });
    } catch (error) {
      // Our stream failed (cancelled by the gateway, too large) or storage already refused: either way, give up the call.
      upload.cancel();
      throw error;
    }
    const { name, facesDetected } = await upload.finish();
    return { name, facesDetected };
  }

  async deleteAvatar(name: string): Promise<void> {
    await this.client.call.deleteAvatar({ name }, { caller: null, deadlineMs: DELETE_DEADLINE_MS });
  }
}
