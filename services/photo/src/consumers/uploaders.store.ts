import type { Prisma, Uploader } from '../generated/prisma/client.js';

/** The uploaders projection, written by the consumer of auth's user events inside its transaction. */
export interface UploaderStore {
  /** Stores the names unless the stored ones are as new or newer (by the user's updated_at); answers whether it stored. */
  saveIfNewer(uploader: Uploader): Promise<boolean>;
  /** Forgets a deleted user: their names, and which photos they rated. */
  delete(id: string): Promise<void>;
}

/** The uploaders projection inside a consumer's transaction (or, in tests, on the client itself). */
export class PrismaUploaderStore implements UploaderStore {
  constructor(private readonly db: Pick<Prisma.TransactionClient, '$executeRaw'>) {}

  // Order-safe: an event older than what is stored (redelivered late, or overtaken) changes nothing.
  async saveIfNewer(u: Uploader): Promise<boolean> {
    const stored = await this.db.$executeRaw`
      INSERT INTO "photo"."uploaders" ("id", "first_name", "last_name", "display_name", "profile_image_url", "custom_profile_image", "updated_at")
      VALUES (${u.id}, ${u.firstName}, ${u.lastName}, ${u.displayName}, ${u.profileImageUrl}, ${u.customProfileImage}, ${u.updatedAt})
      ON CONFLICT ("id") DO UPDATE SET
        "first_name" = EXCLUDED."first_name",
        "last_name" = EXCLUDED."last_name",
        "display_name" = EXCLUDED."display_name",
        "profile_image_url" = EXCLUDED."profile_image_url",
        "custom_profile_image" = EXCLUDED."custom_profile_image",
        "updated_at" = EXCLUDED."updated_at"
      WHERE "uploaders"."updated_at" < EXCLUDED."updated_at"`;
    return stored > 0;
  }

  async delete(id: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM "photo"."uploaders" WHERE "id" = ${id}`;
    await this.db.$executeRaw`DELETE FROM "photo"."photo_raters" WHERE "user_id" = ${id}`;
  }
}
