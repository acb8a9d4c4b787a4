import { PAGES, USER_SEARCH } from '@snapcracks/http-contract';
import { useEffect, useId, useRef, useState } from 'react';
import { AlertTriangle, RotateCw, Search, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { ApiError, isUnauthorizedError } from '@/lib/api';
import { formatCountOf } from '@/lib/format';
import { useAdminUsersQuery } from '@/queries/admin-users';
import { useDebouncedValue } from './use-debounced-value';
import { useMediaQuery, WIDE_LAYOUT_QUERY } from './use-media-query';
import { useRecheckAdminOnRefusal } from '@/hooks/use-recheck-admin-on-refusal';
import { ListPagination } from '@/components/admin/list-pagination';
import { UserCards, UsersTable } from './users-table';

/** Users per page (the server's default). */
export const USERS_PAGE_SIZE = PAGES.limits.adminUsers.default;
const SEARCH_DELAY_MS = 300;
const SKELETON_COUNT = 4;

/**
 * The users list of SPEC §2 User management: searchable and paginated, a table from tablet width up and cards on
 * phones, each user with enabled and admin switches, an edit dialog and delete.
 */
export function UserManagement() {
  const { user: me } = useAuth();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const { data, isPending, error, refetch, isRefetching, isPlaceholderData } = useAdminUsersQuery({ page, limit: USERS_PAGE_SIZE, query });
  useRecheckAdminOnRefusal(error);
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const searchId = useId();

  const users = data?.users ?? [];
  // Where focus goes once a deleted user's row (and the Delete button that had focus) has left the screen.
  const [deletedId, setDeletedId] = useState<string | null>(null);
  const gone = deletedId !== null && !users.some((u) => u.id === deletedId);
  useEffect(() => {
    if (gone) headingRef.current?.focus();
  }, [gone]);
  const onDeleted = (id: string) => {
    setDeletedId(id);
    // The last user of a later page went: show the page before it.
    if (users.length === 1 && page > 1) setPage(page - 1);
  };
  const changePage = (next: number) => {
    setPage(next);
    headingRef.current?.focus();
  };

  return (
    <section aria-labelledby="users-heading" className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="users-heading" ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-2xl font-bold tracking-tight outline-none">
            <Users className="size-6 text-primary" aria-hidden="true" />
            Users
          </h2>
          <p className="mt-1 text-sm text-muted-foreground" aria-live="polite">
            {data ? countLabel(data.total, query) : '\u00a0'}
          </p>
        </div>
        <form role="search" className="w-full sm:max-w-xs" onSubmit={(event) => event.preventDefault()}>
          <Label htmlFor={searchId} className="sr-only">
            Search users
          </Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              id={searchId}
              type="search"
              placeholder="Search by name or email"
              className="pl-9"
              maxLength={USER_SEARCH.maxLength}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
              }}
            />
          </div>
        </form>
      </div>

      {isPending ? (
        <UsersSkeleton />
      ) : error && !data ? (
        isUnauthorizedError(error) ? (
          <UsersSkeleton />
        ) : (
          <UsersError error={error} onRetry={() => void refetch()} isRetrying={isRefetching} />
        )
      ) : users.length === 0 ? (
        <UsersEmpty query={query} />
      ) : (
        <div className={isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'} aria-busy={isPlaceholderData}>
          {wide ? (
            <UsersTable users={users} currentUserId={me?.id} onDeleted={onDeleted} />
          ) : (
            <UserCards users={users} currentUserId={me?.id} onDeleted={onDeleted} />
          )}
        </div>
      )}

      {data && <ListPagination page={page} totalPages={data.totalPages} onPageChange={changePage} label="User list pages" />}
    </section>
  );
}

function countLabel(total: number, query: string): string {
  const users = formatCountOf(total, 'user');
  return query.trim() ? `${users} matching “${query.trim()}”` : users;
}


function UsersSkeleton() {
  return (
    <div role="status" aria-label="Loading users" className="flex flex-col gap-3">
      {Array.from({ length: SKELETON_COUNT }, (_, index) => (
        <div key={index} className="flex items-center gap-3 rounded-xl border bg-card p-4">
          <Skeleton className="size-9 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
          <Skeleton className="hidden h-6 w-11 rounded-full sm:block" />
          <Skeleton className="hidden h-9 w-20 sm:block" />
        </div>
      ))}
    </div>
  );
}

function UsersEmpty({ query }: { query: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <Users className="size-10 text-muted-foreground" aria-hidden="true" />
        <h3 className="text-xl font-semibold">No users found</h3>
        <p className="max-w-md text-muted-foreground">
          {query.trim() ? 'No one matches your search. Try another name or email.' : 'Accounts appear here once people sign in.'}
        </p>
      </CardContent>
    </Card>
  );
}

function UsersError({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) {
  const refused = error instanceof ApiError && error.status === 403;
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
        <h3 className="text-xl font-semibold">Could not load users</h3>
        <p className="max-w-md text-muted-foreground">
          {refused ? "You don't have permission to access the admin panel." : 'Something went wrong while loading the users.'}
        </p>
        {!refused && (
          <Button variant="outline" className="mt-2" onClick={onRetry} disabled={isRetrying}>
            <RotateCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
            Try Again
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
