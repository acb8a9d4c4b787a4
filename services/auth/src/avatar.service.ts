import type { Caller, Logger } from '@snapcracks/kit';
import type { AuthService } from './auth.service.js';
import type { AvatarStorage } from './storage.client.js';
import type { User } from './user.repository.js';

/**
 * A member's new avatar, in the one call the gateway makes: the bytes stream on to storage (which checks them, crops
 * them square and stores a 256 px WebP under a new name), the account is pointed at the new avatar, and the one it
 * replaced is deleted. A refused or failed upload leaves the account as it was and keeps nothing it stored. Deletions
 * are best effort: the orphaned-files cleanup, which asks auth which avatars are in use, removes what one leaves.
 */
export class AvatarService {
  constructor(
    private readonly accounts: Pick<AuthService, 'setAvatar'>,
    private readonly storage: AvatarStorage,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  async upload(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<{ user: User; facesDetected: number | undefined }> {
    const stored = await this.storage.storeAvatar(caller, chunks);
    let changed: Awaited<ReturnType<AuthService['setAvatar']>>;
    try {
      changed = await this.accounts.setAvatar(caller, stored.name);
    } catch (error) {
      await this.deleteQuietly(stored.name);
      throw error;
    }
    if (changed.previous) await this.deleteQuietly(changed.previous);
    return { user: changed.user, facesDetected: stored.facesDetected };
  }

  private async deleteQuietly(name: string): Promise<void> {
    try {
      await this.storage.deleteAvatar(name);
    } catch (error) {
      this.logger.warn({ err: error, avatar: name }, 'could not delete an avatar blob; the orphaned-files cleanup will');
    }
  }
}
