import type { ReactNode } from 'react';
import { LineChart, Star } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatCountOf, formatDate, formatPercent, formatRating, formatVoteCount } from '@/lib/format';
import type { UserPhoto } from '@/lib/types';
import { useUserPhotosQuery } from '@/queries/user-photos';
import { useUserStatsQuery } from '@/queries/user-stats';

/**
 * Plots of what the dashboard already has: each approved photo's average over its approval date (the member's photos,
 * GET /api/user/photos), and the votes received per star (GET /api/user/stats: every vote on the approved photos, a
 * changed vote counted at its new rating). Drawn with the theme's CSS variables, so both follow dark mode, each with
 * the same figures as text for screen readers.
 */
export function RatingCharts() {
  const photos = useUserPhotosQuery();
  const stats = useUserStatsQuery();
  // Both cards are always there, at the size they will have, loading or empty: nothing below them moves.
  const rated = photos.data ? ratedPhotos(Array.isArray(photos.data) ? photos.data : []) : undefined;
  const stars = stats.data ? (votesPerStar(stats.data.ratingDistribution) ?? NO_VOTES) : undefined;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <RatingsOverTime photos={photos.isError ? [] : rated} />
      <StarDistribution counts={stats.isError ? NO_VOTES : stars} />
    </div>
  );
}

const NO_VOTES = [0, 0, 0, 0, 0];

interface RatedPoint {
  id: number;
  label: string;
  at: number;
  average: number;
  votes: number;
}

function ratedPhotos(photos: UserPhoto[]): RatedPoint[] {
  return photos
    .filter((p) => p.status === 'approved' && p.voteCount > 0 && Number.isFinite(Date.parse(p.approvedAt ?? '')))
    .map((p) => ({ id: p.id, label: p.description || `Photo ${p.id}`, at: Date.parse(p.approvedAt!), average: p.averageRating, votes: p.voteCount }))
    .sort((a, b) => a.at - b.at);
}

const WIDTH = 320;
const HEIGHT = 160;
const PAD = { left: 24, right: 8, top: 8, bottom: 20 };

function ChartCard({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
          {id.startsWith('ratings') ? <LineChart className="size-5 text-primary" aria-hidden="true" /> : <Star className="size-5 text-primary" aria-hidden="true" />}
          {title}
        </h2>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** `photos` undefined: loading. The plot keeps its 2:1 box in every state. */
function RatingsOverTime({ photos }: { photos: RatedPoint[] | undefined }) {
  const card = (body: ReactNode) => (
    <ChartCard id="ratings-over-time-title" title="Ratings Over Time" description="Each approved photo’s average rating, by approval date.">
      {body}
    </ChartCard>
  );
  if (!photos) return card(<Skeleton className="aspect-[2/1] w-full" />);
  if (photos.length === 0) {
    return card(
      <div className="flex aspect-[2/1] w-full items-center justify-center rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
        Once your approved photos get votes, their averages show here.
      </div>,
    );
  }
  const first = photos[0]!.at;
  const last = photos[photos.length - 1]!.at;
  const x = (at: number) => PAD.left + (last === first ? 0.5 : (at - first) / (last - first)) * (WIDTH - PAD.left - PAD.right);
  const y = (rating: number) => PAD.top + ((5 - rating) / 4) * (HEIGHT - PAD.top - PAD.bottom);
  const path = photos.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.average).toFixed(1)}`).join(' ');
  return card(
    <>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Average rating of ${photos.length} ${photos.length === 1 ? 'photo' : 'photos'} by approval date`}
        className="aspect-[2/1] w-full"
      >
        {[1, 2, 3, 4, 5].map((r) => (
          <g key={r}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(r)} y2={y(r)} stroke="var(--border)" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(r) + 3} textAnchor="end" fontSize={9} fill="var(--muted-foreground)">
              {r}
            </text>
          </g>
        ))}
        <path d={path} fill="none" stroke="var(--primary)" strokeWidth={2} />
        {photos.map((p) => (
          <circle key={p.id} cx={x(p.at)} cy={y(p.average)} r={3.5} fill="var(--primary)">
            <title>{`${p.label}: ${formatRating(p.average)} (${formatVoteCount(p.votes)})`}</title>
          </circle>
        ))}
        <text x={PAD.left} y={HEIGHT - 4} fontSize={9} fill="var(--muted-foreground)">
          {formatDate(first)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 4} textAnchor="end" fontSize={9} fill="var(--muted-foreground)">
          {formatDate(last)}
        </text>
      </svg>
      {/* sr-only cannot shrink a table (its columns keep their width): the wrapper is what is clipped. */}
      <div className="sr-only">
        <table>
          <caption>Average rating by approval date</caption>
          <thead>
            <tr>
              <th scope="col">Approved</th>
              <th scope="col">Photo</th>
              <th scope="col">Average rating</th>
              <th scope="col">Votes</th>
            </tr>
          </thead>
          <tbody>
            {photos.map((p) => (
              <tr key={p.id}>
                <td>{formatDate(p.at)}</td>
                <td>{p.label}</td>
                <td>{formatRating(p.average)}</td>
                <td>{formatCount(p.votes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>,
  );
}

/**
 * The five counts, 1 star first, or null when there is nothing to plot (no votes yet, or an answer without them). A
 * count below zero can only be an instant of catching up on events arriving out of order, and is shown as none.
 */
export function votesPerStar(distribution: number[] | undefined): number[] | null {
  if (!Array.isArray(distribution) || distribution.length !== 5) return null;
  const counts = distribution.map((n) => (Number.isFinite(n) && n > 0 ? Math.round(n) : 0));
  return counts.some((n) => n > 0) ? counts : null;
}


/** `counts` undefined: loading (the five rows are there, without bars or figures). */
function StarDistribution({ counts }: { counts: number[] | undefined }) {
  const max = Math.max(1, ...(counts ?? []));
  const total = counts?.reduce((a, b) => a + b, 0) ?? 0;
  const share = (count: number) => formatPercent(total > 0 ? (count / total) * 100 : 0);
  const description =
    counts === undefined
      ? 'The votes your approved photos received, by stars given.'
      : total === 0
        ? 'No votes on your approved photos yet.'
        : `The ${formatVoteCount(total)} your approved photos received, by stars given.`;
  return (
    <ChartCard id="star-distribution-title" title="Star Distribution" description={description}>
      <ul className="space-y-2" aria-label="Votes received by stars" aria-busy={counts === undefined || undefined}>
        {[5, 4, 3, 2, 1].map((stars) => {
          const count = counts?.[stars - 1] ?? 0;
          return (
            <li
              key={stars}
              aria-label={counts === undefined ? formatCountOf(stars, 'star') : `${formatCountOf(stars, 'star')}: ${formatVoteCount(count)} (${share(count)})`}
              className="flex items-center gap-3 text-sm"
            >
              <span className="flex w-10 items-center gap-1 tabular-nums" aria-hidden="true">
                {stars}
                <Star className="size-3.5 fill-current text-amber-500 dark:text-amber-400" />
              </span>
              <div className="h-3 flex-1 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                <div className="h-full rounded-full" style={{ width: `${(count / max) * 100}%`, background: 'var(--primary)' }} />
              </div>
              <span className="w-16 text-right tabular-nums text-muted-foreground" aria-hidden="true">
                {counts === undefined ? (
                  <Skeleton className="ml-auto h-3 w-10" />
                ) : (
                  <>
                    <span className="text-foreground">{formatCount(count)}</span> · {share(count)}
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </ChartCard>
  );
}
