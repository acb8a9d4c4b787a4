import { AlertTriangle, Award, BarChart3, Camera, CheckCircle2, Clock, RotateCw, Star, ThumbsDown, TrendingUp, Trophy, Upload, Vote, XCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { imageAltText } from '@/components/photo/photo-labels';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { isUnauthorizedError, uploadedFileUrl } from '@/lib/api';
import { formatCount, formatCountOf, formatPercent, formatRating, formatVoteCount } from '@/lib/format';
import type { RatedPhoto, UserStats } from '@/lib/types';
import { cn } from '@/lib/utils';
import { approvalRate, useUserStatsQuery } from '@/queries/user-stats';

/** SPEC §9: ratings show one decimal; "—" when there is nothing to average. */
const ratingOrDash = (rating: number, votes: number) => (votes > 0 ? formatRating(rating) : '—');
const whereUploadsStand = (count: number) => `Where your ${formatCountOf(count, 'upload')} ${count === 1 ? 'stands' : 'stand'}.`;

/**
 * SPEC §2 Dashboard: stat cards, rankings, performance, status overview, top-rated and lowest-rated photos. While the
 * stats load, every section is already there with its titles and placeholders of the figures' own size, so nothing
 * below moves when they arrive.
 */
export function UserStatsSections() {
  const { data, isPending, error, refetch, isRefetching } = useUserStatsQuery();
  if (isPending || (error && isUnauthorizedError(error))) return <Sections stats={undefined} />;
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
  return <Sections stats={data} />;
}

/** `stats` undefined: still loading. */
function Sections({ stats }: { stats: UserStats | undefined }) {
  return (
    <div className="flex flex-col gap-6" aria-busy={stats ? undefined : true}>
      {!stats && (
        <span role="status" aria-label="Loading your stats" className="sr-only">
          Loading your stats
        </span>
      )}
      <StatCards stats={stats} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Rankings stats={stats} />
        <Performance stats={stats} />
        <StatusOverview stats={stats} />
      </div>
      <RatedPhotos stats={stats} />
    </div>
  );
}

/** A figure, or while loading a placeholder of its line's height (`lineClass`: the figure's own font size). */
function Figure({ value, lineClass, width = 'w-16' }: { value: ReactNode | undefined; lineClass: string; width?: string }) {
  if (value !== undefined) return <>{value}</>;
  return (
    // Spans, not the Skeleton's div: figures sit inside paragraphs.
    <span className={cn('flex items-center', lineClass)} aria-hidden="true">
      <span className={cn('block h-[0.8em] animate-pulse rounded-md bg-muted', width)} />
    </span>
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

function StatCards({ stats }: { stats: UserStats | undefined }) {
  const cards: { label: string; value: string | undefined; hint: string | undefined; icon: LucideIcon }[] = [
    { label: 'Total Uploads', value: stats && formatCount(stats.totalUploads), hint: stats && `${formatCount(stats.uploadsThisWeek)} this week`, icon: Upload },
    { label: 'Approved', value: stats && formatCount(stats.approvedUploads), hint: 'Live in the gallery', icon: CheckCircle2 },
    { label: 'Average Rating', value: stats && ratingOrDash(stats.averageRating, stats.totalVotes), hint: 'Over all votes received', icon: Star },
    { label: 'Total Votes', value: stats && formatCount(stats.totalVotes), hint: 'On your approved photos', icon: Vote },
  ];
  return (
    <section aria-label="Your numbers">
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map(({ label, value, hint, icon: Icon }) => (
          <li key={label} aria-label={value === undefined ? label : `${label}: ${value}`}>
            <Card className="h-full">
              <CardContent className="flex items-start justify-between gap-3 pt-6">
                <div>
                  <p className="text-sm font-medium text-muted-foreground">{label}</p>
                  <p className="mt-1 text-3xl font-bold tabular-nums">
                    <Figure value={value} lineClass="h-9" width="w-12" />
                  </p>
                  <p className="mt-1 text-xs text-muted-foreground">
                    <Figure value={hint} lineClass="h-4" width="w-20" />
                  </p>
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

function Rankings({ stats }: { stats: UserStats | undefined }) {
  const rank = (value: number | null | undefined) =>
    value === undefined || !stats ? undefined : value === null ? '—' : `#${formatCount(value)} of ${formatCount(stats.totalActiveUsers)}`;
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
            <dd className="text-2xl font-bold tabular-nums">
              <Figure value={rank(stats?.rankByUploads)} lineClass="h-8" width="w-24" />
            </dd>
            {stats?.rankByUploads === null && <dd className="text-xs text-muted-foreground">Get a photo approved to be ranked.</dd>}
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">By average rating</dt>
            <dd className="text-2xl font-bold tabular-nums">
              <Figure value={rank(stats?.rankByAverageRating)} lineClass="h-8" width="w-24" />
            </dd>
            {stats?.rankByAverageRating === null && <dd className="text-xs text-muted-foreground">Needs at least 3 votes on your photos.</dd>}
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function Performance({ stats }: { stats: UserStats | undefined }) {
  const rate = stats ? approvalRate(stats) : 0;
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
            <dd className="text-2xl font-bold tabular-nums">
              <Figure value={stats && formatPercent(rate)} lineClass="h-8" />
            </dd>
            <dd>
              <div role="progressbar" aria-label="Approval rate" aria-valuemin={0} aria-valuemax={100} aria-valuenow={rate} className="mt-1 h-2 overflow-hidden rounded-full bg-muted">
                <div className="h-full rounded-full bg-primary" style={{ width: `${rate}%` }} />
              </div>
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Recent average (last 5 approved)</dt>
            <dd className="text-2xl font-bold tabular-nums">
              <Figure value={stats && ratingOrDash(stats.recentAverageRating, stats.recentVoteCount)} lineClass="h-8" />
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Uploads this week</dt>
            <dd className="text-2xl font-bold tabular-nums">
              <Figure value={stats?.uploadsThisWeek} lineClass="h-8" width="w-8" />
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function StatusOverview({ stats }: { stats: UserStats | undefined }) {
  const rows: { label: string; count: number | undefined; icon: LucideIcon; barClass: string }[] = [
    { label: 'Approved', count: stats?.approvedUploads, icon: CheckCircle2, barClass: 'bg-emerald-600 dark:bg-emerald-500' },
    { label: 'Pending', count: stats?.pendingUploads, icon: Clock, barClass: 'bg-amber-500 dark:bg-amber-400' },
    { label: 'Rejected', count: stats?.rejectedUploads, icon: XCircle, barClass: 'bg-red-600 dark:bg-red-500' },
  ];
  const total = stats?.totalUploads ?? 0;
  return (
    <Card role="region" aria-labelledby="status-title">
      <CardHeader>
        <SectionTitle id="status-title" icon={BarChart3}>
          Status Overview
        </SectionTitle>
        <CardDescription>{stats ? whereUploadsStand(total) : 'Where your uploads stand.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4">
          {rows.map(({ label, count, icon: Icon, barClass }) => {
            const share = count !== undefined && total > 0 ? Math.round((count / total) * 100) : 0;
            return (
              <li key={label} aria-label={count === undefined ? label : `${label}: ${formatCount(count)}`}>
                <div className="flex items-center justify-between text-sm">
                  <span className="flex items-center gap-2">
                    <Icon className="size-4" aria-hidden="true" />
                    {label}
                  </span>
                  <span className="font-semibold tabular-nums">
                    <Figure value={count === undefined ? undefined : formatCount(count)} lineClass="h-5" width="w-6" />
                  </span>
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

function RatedPhotos({ stats }: { stats: UserStats | undefined }) {
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
      <RatedPhotoCard title="Top Rated Photo" icon={Award} photo={stats && stats.highestRatedPhoto} />
      <RatedPhotoCard title="Lowest Rated Photo" icon={ThumbsDown} photo={stats && stats.lowestRatedPhoto} />
    </div>
  );
}

/** `photo` undefined: loading. Every state takes the thumbnail's height, so the cards below never move. */
function RatedPhotoCard({ title, icon, photo }: { title: string; icon: LucideIcon; photo: RatedPhoto | null | undefined }) {
  const id = `${title.toLowerCase().replace(/\s+/g, '-')}-title`;
  return (
    <section aria-labelledby={id}>
      <Card className="h-full overflow-hidden">
        <CardHeader>
          <SectionTitle id={id} icon={icon}>
            {title}
          </SectionTitle>
        </CardHeader>
        <CardContent className="min-h-24">
          {photo === undefined ? (
            <div className="flex gap-4" aria-hidden="true">
              <Skeleton className="size-24 shrink-0 rounded-lg" />
              <div className="flex flex-1 flex-col gap-2 pt-1">
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="mt-2 h-6 w-16" />
                <Skeleton className="h-4 w-14" />
              </div>
            </div>
          ) : photo ? (
            <div className="flex gap-4">
              <img
                src={`${uploadedFileUrl(photo.filename)}?size=thumb`}
                alt={imageAltText(photo, title)}
                loading="lazy"
                width={96}
                height={96}
                className="size-24 shrink-0 rounded-lg border bg-muted object-contain"
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
