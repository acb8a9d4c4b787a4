import { useState } from 'react';
import { AlertTriangle, ChevronLeft, ChevronRight, Inbox, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { isUnauthorizedError } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { ContactFormFilter, ContactFormItem, ContactFormStatus } from '@/lib/types';
import { useContactFormsQuery, useUpdateContactFormStatusMutation } from '@/queries/contact';
import { ContactFormCard } from './contact-form-card';
import { SupportFilterCards } from './support-filter-cards';
import { DEFAULT_SUPPORT_FILTER, STATUS_STYLES, SUPPORT_FILTERS, emptySupportText } from './support-statuses';

const SKELETON_COUNT = 3;

/**
 * The admin's contact messages (SPEC §2 User Support): counters that filter, newest messages first, a status
 * dropdown on each. Polled every 30 s, refetched after every change.
 */
export function SupportInbox() {
  const [filter, setFilter] = useState<ContactFormFilter>(DEFAULT_SUPPORT_FILTER);
  const [page, setPage] = useState(1);
  const { data, isPending, error, refetch, isRefetching, isPlaceholderData } = useContactFormsQuery(filter, page);
  const updateStatus = useUpdateContactFormStatusMutation({ title: 'Error', description: 'Failed to update contact form status.' });

  // A change can empty the last page (its message moved to another status): step back to the new last page.
  const lastPage = Math.max(1, data?.totalPages ?? 1);
  if (data && !isPlaceholderData && page > lastPage) setPage(lastPage);

  const selectFilter = (next: ContactFormFilter) => {
    setFilter(next);
    setPage(1);
  };

  const changeStatus = (form: ContactFormItem, status: ContactFormStatus) => {
    updateStatus.mutate(
      { id: form.id, status },
      {
        onSuccess: () => {
          toast({
            title: 'Status Updated',
            description: `The message from ${form.name} is now ${STATUS_STYLES[status].word}.`,
          });
        },
      },
    );
  };
  const pending = updateStatus.isPending ? updateStatus.variables : undefined;
  const filterLabel = SUPPORT_FILTERS.find((option) => option.id === filter)?.label ?? '';

  return (
    <div className="flex flex-col gap-8">
      <SupportFilterCards selected={filter} counts={data?.counts} onSelect={selectFilter} />

      <section aria-labelledby="support-list-title" aria-busy={isPlaceholderData} className="flex flex-col gap-4">
        <h2 id="support-list-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <Inbox className="size-6 text-primary" aria-hidden="true" />
          {filterLabel}
        </h2>
        {isPending ? (
          <SupportSkeleton />
        ) : error && !data ? (
          isUnauthorizedError(error) ? (
            <SupportSkeleton />
          ) : (
            <SupportError onRetry={() => void refetch()} isRetrying={isRefetching} />
          )
        ) : !data || data.items.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
              <Inbox className="size-10 text-muted-foreground" aria-hidden="true" />
              <p className="text-lg font-medium">{emptySupportText(filter)}</p>
            </CardContent>
          </Card>
        ) : (
          <>
            <ul aria-label="Messages" className="flex flex-col gap-4">
              {data.items.map((form) => (
                <ContactFormCard
                  key={form.id}
                  form={form}
                  status={pending?.id === form.id ? pending.status : form.status}
                  isUpdating={pending?.id === form.id}
                  onStatusChange={(status) => changeStatus(form, status)}
                />
              ))}
            </ul>
            <SupportPager page={data.page} totalPages={data.totalPages} onPageChange={setPage} />
          </>
        )}
      </section>
    </div>
  );
}

function SupportPager({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Message pages" className="flex items-center justify-center gap-3">
      <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
        <ChevronLeft aria-hidden="true" />
        Previous
      </Button>
      <span className="text-sm text-muted-foreground">
        Page {page} of {totalPages}
      </span>
      <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= totalPages}>
        Next
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}

function SupportSkeleton() {
  return (
    <div role="status" aria-label="Loading messages" className="flex flex-col gap-4">
      {Array.from({ length: SKELETON_COUNT }, (_, index) => (
        <div key={index} className="space-y-3 rounded-xl border bg-card p-5">
          <div className="flex justify-between gap-4">
            <div className="w-full space-y-2">
              <Skeleton className="h-5 w-1/2" />
              <Skeleton className="h-4 w-1/3" />
            </div>
            <Skeleton className="h-9 w-40" />
          </div>
          <Skeleton className="h-16 w-full" />
        </div>
      ))}
    </div>
  );
}

function SupportError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
        <h3 className="text-xl font-semibold">Could not load the messages</h3>
        <p className="max-w-md text-muted-foreground">Something went wrong while loading the contact messages.</p>
        <Button variant="outline" className="mt-2" onClick={onRetry} disabled={isRetrying}>
          <RotateCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
          Try Again
        </Button>
      </CardContent>
    </Card>
  );
}
