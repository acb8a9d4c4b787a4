import { AlertTriangle, Award, BarChart3, Camera, CheckCircle2, Clock, RotateCw, Star, ThumbsDown, TrendingUp, Trophy, Upload, Vote, XCircle, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnauthorizedRedirect } from '@/hooks/use-unauthorized-redirect';
import { isUnauthorizedError, photoFileUrl } from '@/lib/api';
import { approvalRate, useUserStatsQuery, type RatedPhoto, type UserStats } from '@/queries/user-stats';
import { formatRating, formatVoteCount } from './format';

/** SPEC §9: ratings show one decimal; "—" when there is nothing to average. */
const ratingOrDash = (rating: number, votes: number) => (votes > 0 ? formatRating(rating) : '—');

/** SPEC §2 Dashboard: stat cards, rankings, performance, status overview, top-rated and lowest-rated photos. */
export function UserStatsSections() {
  const { data, isPending, error, refetch, isRefetching } = useUserStatsQuery();
  useUnauthorizedRedirect(error);
  if (isPending || (error && isUnauthorizedError(error))) return <UserStatsSkeleton />;
  if (error || !data) {
    return (
      <Card role="alert">
        <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
          <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
          <h2 className="text-xl font-semibold">Could not load your stats</h2>
          <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      <StatCards stats={data} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Rankings stats={data} />
        <Performance stats={data} />
        <StatusOverview stats={data} />
      </div>
      <RatedPhotos stats={data} />
    </>
  );
}

function UserStatsSkeleton() {
  return (
    <div role="status" aria-label="Loading your stats" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="space-y-3 rounded-xl border bg-card p-6">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-8 w-16" />
          <Skeleton className="h-3 w-32" />
        </div>
      ))}
    </div>
  );
}

function SectionTitle({ id, icon: Icon, children }: { id: string; icon: LucideIcon; children: string }) {
  return (
    <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {children}
    </h2>
  );
}

function StatCards({ stats }: { stats: UserStats }) {
  const cards: { label: string; value: string; hint: string; icon: LucideIcon }[] = [
    { label: 'Total Uploads', value: String(stats.totalUploads), hint: `${stats.uploadsThisWeek} this week`, icon: Upload },
    { label: 'Approved', value: String(stats.approvedUploads), hint: 'Live in the gallery', icon: CheckCircle2 },
    { label: 'Average Rating', value: ratingOrDash(stats.averageRating, stats.totalVotes), hint: 'Over all votes received', icon: Star },
    { label: 'Total Votes', value: String(stats.totalVotes), hint: 'On your approved photos', icon: Vote },
  ];
  return (
    <section aria-label="Your numbers">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map(({ label, value, hint, icon: Icon }) => (
          <li key={label} aria-label={`${label}: ${value}`}>
            <Card className="h-full">
              <CardContent className="flex items-start justify-between gap-3 pt-6">
                <div>
                  <p className="text-sm font-medium text-muted-foreground">{label}</p>
                  <p className="mt-1 text-3xl font-bold tabular-nums">{value}</p>
                  <p className="mt-1 text-xs text-muted-foreground">{hint}</p>
                </div>
                <Icon className="size-6 text-primary" aria-hidden="true" />
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Rankings({ stats }: { stats: UserStats }) {
  const rank = (value: number | null) => (value === null ? '—' : `#${value} of ${stats.totalActiveUsers}`);
  return (
    <Card role="region" aria-labelledby="rankings-title">
      <CardHeader>
        <SectionTitle id="rankings-title" icon={Trophy}>
          Rankings
        </SectionTitle>
        <CardDescription>Among members with an approved photo.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="space-y-4">
          <div>
            <dt className="text-sm text-muted-foreground">By uploads</dt>
            <dd className="text-2xl font-bold tabular-nums">{rank(stats.rankByUploads)}</dd>
            {stats.rankByUploads === null && <dd className="text-xs text-muted-foreground">Get a photo approved to be ranked.</dd>}
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">By average rating</dt>
            <dd className="text-2xl font-bold tabular-nums">{rank(stats.rankByAverageRating)}</dd>
            {stats.rankByAverageRating === null && <dd className="text-xs text-muted-foreground">Needs at least 3 votes on your photos.</dd>}
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function Performance({ stats }: { stats: UserStats }) {
  const rate = approvalRate(stats);
  return (
    <Card role="region" aria-labelledby="performance-title">
      <CardHeader>
        <SectionTitle id="performance-title" icon={TrendingUp}>
          Performance
        </SectionTitle>
        <CardDescription>How your snaps are doing.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="space-y-4">
          <div>
            <dt className="text-sm text-muted-foreground">Approval rate</dt>
            <dd className="text-2xl font-bold tabular-nums">{rate}%</dd>
            <dd>
              <div role="progressbar" aria-label="Approval rate" aria-valuemin={0} aria-valuemax={100} aria-valuenow={rate} className="mt-1 h-2 overflow-hidden rounded-full bg-muted">
                <div className="h-full rounded-full bg-primary" style={{ width: `${rate}%` }} />
              </div>
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Recent average (last 5 approved)</dt>
            <dd className="text-2xl font-bold tabular-nums">{ratingOrDash(stats.recentAverageRating, stats.recentVoteCount)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Uploads this week</dt>
            <dd className="text-2xl font-bold tabular-nums">{stats.uploadsThisWeek}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function StatusOverview({ stats }: { stats: UserStats }) {
  const rows: { label: string; count: number; icon: LucideIcon; barClass: string }[] = [
    { label: 'Approved', count: stats.approvedUploads, icon: CheckCircle2, barClass: 'bg-emerald-600 dark:bg-emerald-500' },
    { label: 'Pending', count: stats.pendingUploads, icon: Clock, barClass: 'bg-amber-500 dark:bg-amber-400' },
    { label: 'Rejected', count: stats.rejectedUploads, icon: XCircle, barClass: 'bg-red-600 dark:bg-red-500' },
  ];
  return (
    <Card role="region" aria-labelledby="status-title">
      <CardHeader>
        <SectionTitle id="status-title" icon={BarChart3}>
          Status Overview
        </SectionTitle>
        <CardDescription>Where your {stats.totalUploads} uploads stand.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4">
          {rows.map(({ label, count, icon: Icon, barClass }) => {
            const share = stats.totalUploads > 0 ? Math.round((count / stats.totalUploads) * 100) : 0;
            return (
              <li key={label} aria-label={`${label}: ${count}`}>
                <div className="flex items-center justify-between text-sm">
                  <span className="flex items-center gap-2">
                    <Icon className="size-4" aria-hidden="true" />
                    {label}
                  </span>
                  <span className="font-semibold tabular-nums">{count}</span>
                </div>
                <div className="mt-1 h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div className={`h-full rounded-full ${barClass}`} style={{ width: `${share}%` }} />
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

function RatedPhotos({ stats }: { stats: UserStats }) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <RatedPhotoCard title="Top Rated Photo" icon={Award} photo={stats.highestRatedPhoto} />
      <RatedPhotoCard title="Lowest Rated Photo" icon={ThumbsDown} photo={stats.lowestRatedPhoto} />
    </div>
  );
}

function RatedPhotoCard({ title, icon, photo }: { title: string; icon: LucideIcon; photo: RatedPhoto | null }) {
  const id = `${title.toLowerCase().replace(/\s+/g, '-')}-title`;
  return (
    <section aria-labelledby={id}>
      <Card className="h-full overflow-hidden">
        <CardHeader>
          <SectionTitle id={id} icon={icon}>
            {title}
          </SectionTitle>
        </CardHeader>
        <CardContent>
          {photo ? (
            <div className="flex gap-4">
              <img
                src={`${photoFileUrl(photo.filename)}?size=thumb`}
                alt={photo.description || title}
                loading="lazy"
                className="size-24 shrink-0 rounded-lg border object-cover"
              />
              <div className="min-w-0">
                <p className="line-clamp-2 font-medium">{photo.description || 'No description'}</p>
                <p className="mt-2 flex items-center gap-1 text-2xl font-bold tabular-nums">
                  <Star className="size-5 fill-current text-amber-500" aria-hidden="true" />
                  {formatRating(photo.averageRating)}
                </p>
                <p className="text-sm text-muted-foreground">{formatVoteCount(photo.voteCount)}</p>
              </div>
            </div>
          ) : (
            <p className="flex items-center gap-2 text-muted-foreground">
              <Camera className="size-4" aria-hidden="true" />
              No rated photos yet.
            </p>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
