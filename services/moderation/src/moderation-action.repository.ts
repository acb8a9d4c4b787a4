import type { Prisma, PrismaClient, ModerationAction as Row } from './generated/prisma/client.js';

/**
 * Decisions about one photo, and the file cleanups (about no single photo; `reason` then says what they removed).
 * `hold`: members' reports took an approved photo back to review (the actor is "reports"); `remove`: an approved or held
 * photo rejected; `dismiss_reports`: a photo's reports dismissed while it stayed in the gallery; `resubmit`: its owner sent
 * a rejected photo back to review (the actor is the owner, the reason their note); `reinstate`: a rejected or removed
 * photo approved after all (the reason is the admin's).
 */
export const ACTION_KINDS = ['approve', 'reject', 'delete', 'cleanup_orphaned', 'cleanup_rejected', 'hold', 'remove', 'dismiss_reports', 'resubmit', 'reinstate'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** One entry of the audit log: who did what to which photo, and why. */
export interface ModerationAction {
  /** The action id: made before the photo service is called, and carried back by its event. */
  id: string;
  actorId: string;
  action: ActionKind;
  photoId: number | null;
  reason: string | null;
  /** Whose photo it was when the action happened. */
  photoOwnerId: string | null;
  createdAt: Date;
}

/**
 * An entry to record; without `createdAt` it takes the time of the write. `photoUploadedAt` is kept for the reviewer
 * figures (the wait from upload to decision) and not read back.
 */
export type NewModerationAction = Omit<ModerationAction, 'createdAt'> & { createdAt?: Date; photoUploadedAt?: Date | null };

export interface ActionQuery {
  /** Already validated: 1 to 200. */
  limit: number;
  /** Only the entries about this photo. */
  photoId?: number;
  /** Only the entries about any of these photos (with `photoId`: about any of them all). */
  photoIds?: number[];
}

/**
 * The audit log, in the service's own words. An entry is written at most once per action id: the direct
 * write after the photo call and the write fed by the photo service's event may both happen, in either order,
 * and leave one entry.
 */
export interface ModerationActionRepository {
  /** Inserts the entry unless one with its id exists (ON CONFLICT DO NOTHING); true when this call inserted it. */
  record(action: NewModerationAction): Promise<boolean>;
  /** Newest first. */
  list(query: ActionQuery): Promise<ModerationAction[]>;
}

/** The service's Prisma client, or the transaction client a consumer's handler runs in. */
type Db = PrismaClient | Prisma.TransactionClient;

/** The only module of the moderation service that talks to Prisma. */
export class PrismaModerationActionRepository implements ModerationActionRepository {
  constructor(private readonly db: Db) {}

  async record(action: NewModerationAction): Promise<boolean> {
    // createMany with skipDuplicates is INSERT … ON CONFLICT DO NOTHING; the primary key (the action id) is
    // the table's only unique constraint, so a conflict can only be the same action arriving twice.
    const { count } = await this.db.moderationAction.createMany({
      data: [
        {
          id: action.id,
          actorId: action.actorId,
          action: action.action,
          photoId: action.photoId === null ? null : BigInt(action.photoId),
          reason: action.reason,
          photoOwnerId: action.photoOwnerId,
          photoUploadedAt: action.photoUploadedAt ?? null,
          ...(action.createdAt ? { createdAt: action.createdAt } : {}),
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async list({ limit, photoId, photoIds }: ActionQuery): Promise<ModerationAction[]> {
    const ids = [...(photoId === undefined ? [] : [photoId]), ...(photoIds ?? [])];
    const filtered = photoId !== undefined || photoIds !== undefined;
    const rows = await this.db.moderationAction.findMany({
      // moderation_actions_photo_id_created_at_idx answers both forms.
      where: filtered ? { photoId: { in: ids.map((id) => BigInt(id)) } } : {},
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(toAction);
  }
}

function toAction(row: Row): ModerationAction {
  return {
    id: row.id,
    actorId: row.actorId,
    action: row.action as ActionKind,
    photoId: row.photoId === null ? null : Number(row.photoId),
    reason: row.reason,
    photoOwnerId: row.photoOwnerId,
    createdAt: row.createdAt,
  };
}
