import { DESK } from '@snapcracks/http-contract';
import type { ReactNode, Ref } from 'react';
import { CalendarDays, Clock, EyeOff, Hourglass, Lock, User as UserIcon, Users } from 'lucide-react';
import { photoImageAlt } from '@/components/dashboard/photo-label';
import { cardGrid } from '@/components/photo/image-sources';
import { Badge } from '@/components/ui/badge';
import { formatCountOf, formatDate, formatDateTime, formatRelativeTime, formatTime } from '@/lib/format';
import { getUploaderName } from '@/lib/user';
import type { DeskItem, DeskKind } from '@/lib/types';
import { cn } from '@/lib/utils';
import { AuditTrail } from '../audit-trail';
import { ContainedPhoto } from '../contained-photo';
import { ReportGroups } from '../report-groups';
import { ResubmissionDetails } from '../resubmission-details';
import { ReviewMarks } from '../review-marks';

/** The desk's one photo takes the width of its column: the display image on a laptop, the medium one on a phone. */
const DESK_GRID = cardGrid({ gap: 0, columns: {}, frame: 4 / 3 });

const KIND_STYLES: Record<DeskKind, string> = {
  new: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-400/40 dark:bg-sky-400/10 dark:text-sky-100',
  resubmission: 'border-violet-300 bg-violet-50 text-violet-950 dark:border-violet-400/40 dark:bg-violet-400/10 dark:text-violet-100',
  reported: 'border-orange-300 bg-orange-50 text-orange-950 dark:border-orange-400/40 dark:bg-orange-400/10 dark:text-orange-100',
};

function Fact({ icon, term, children }: { icon: ReactNode; term: string; children: ReactNode }) {
  return (
    // A dl's groups must hold only their dt and dd: the icon sits in the term, set off to the left.
    <div className="relative min-w-0 pl-6">
      <dt className="text-xs text-muted-foreground">
        <span className="absolute top-0.5 left-0 text-muted-foreground">{icon}</span>
        {term}
      </dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/**
 * One item of the review desk: what brought it here, the whole photo (never cropped), and beside it (below on a
 * phone) what the admin needs to decide: the uploader, when it was uploaded and how long it has waited, the claim, the
 * privacy bars, a resubmission's story, repeat-upload marks, the open reports and the moderation history. `actions`
 * go under the photo.
 */
export function DeskItemView({
  item,
  waiting,
  headingRef,
  currentUserId,
  actions,
  dimmed = false,
}: {
  item: DeskItem;
  waiting: number | null;
  headingRef?: Ref<HTMLHeadingElement>;
  currentUserId: string | undefined;
  actions: ReactNode;
  dimmed?: boolean;
}) {
  const { photo, kind } = item;
  const bars = Array.isArray(photo.privacyBars) ? photo.privacyBars.length : 0;
  return (
    <article aria-labelledby="desk-item-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          <Badge variant="outline" className={KIND_STYLES[kind]}>
            {DESK.kindLabels[kind]}
          </Badge>
          <span>Photo #{photo.id}</span>
          {waiting !== null && (
            <span className="flex items-center gap-1" data-testid="desk-waiting">
              <Hourglass className="size-4" aria-hidden="true" />
              {formatCountOf(waiting, 'photo')} waiting
            </span>
          )}
        </p>
        <h2
          id="desk-item-title"
          ref={headingRef}
          tabIndex={-1}
          className={cn('text-2xl font-semibold tracking-tight break-words outline-none', !photo.description?.trim() && 'text-muted-foreground italic')}
        >
          {photo.description?.trim() || 'No description'}
        </h2>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className={cn('flex min-w-0 flex-col gap-4', dimmed && 'opacity-60')}>
          <div className="overflow-hidden rounded-xl border">
            <ContainedPhoto photo={photo} alt={photoImageAlt(photo)} grid={DESK_GRID} eager />
          </div>
          {actions}
        </div>

        <div className="flex min-w-0 flex-col gap-4">
          <dl className="grid gap-3 rounded-xl border bg-card p-4 text-sm text-card-foreground sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
            <Fact icon={<UserIcon className="size-4" aria-hidden="true" />} term="Uploaded by">
              {getUploaderName(photo.user, photo.userId)}
            </Fact>
            <Fact icon={<CalendarDays className="size-4" aria-hidden="true" />} term="Uploaded">
              <time dateTime={photo.createdAt ?? undefined}>{formatDate(photo.createdAt) ?? 'Unknown'}</time>
            </Fact>
            <Fact icon={<Clock className="size-4" aria-hidden="true" />} term="Waiting since">
              <time dateTime={item.waitingSince ?? undefined} title={formatDateTime(item.waitingSince) ?? undefined}>
                {formatRelativeTime(item.waitingSince) ?? 'Unknown'}
              </time>
            </Fact>
            <Fact icon={<Lock className="size-4" aria-hidden="true" />} term="Claimed for you until">
              <time dateTime={item.claim.expiresAt ?? undefined} data-testid="desk-claim">
                {formatTime(item.claim.expiresAt) ?? 'Unknown'}
              </time>
            </Fact>
            <Fact icon={<EyeOff className="size-4" aria-hidden="true" />} term="Privacy bars">
              {formatCountOf(bars, 'privacy bar')}
            </Fact>
            {kind === 'reported' && (
              <Fact icon={<Users className="size-4" aria-hidden="true" />} term="Reported by">
                {formatCountOf(item.reporters, 'member')}
              </Fact>
            )}
          </dl>
          <ResubmissionDetails photo={photo} />
          <ReviewMarks marks={photo.reviewMarks} />
          {kind === 'reported' && item.reports.length > 0 && (
            <section aria-labelledby="desk-reports-title" className="flex flex-col gap-2">
              <h3 id="desk-reports-title" className="font-semibold">
                Open reports
              </h3>
              <ReportGroups groups={item.reports} />
            </section>
          )}
          <AuditTrail entries={photo.auditLog ?? []} currentUserId={currentUserId} />
        </div>
      </div>
    </article>
  );
}
