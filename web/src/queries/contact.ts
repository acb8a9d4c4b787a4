import { WEB } from '@snapcracks/http-contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/hooks/use-auth';
import { usePollingFallback } from '@/hooks/use-live-connection';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { ContactFormFilter, ContactFormStatus } from '@/lib/types';

/** SPEC §4: a contact form moves freely between these. */
export const CONTACT_FORM_STATUSES: readonly ContactFormStatus[] = ['new', 'in_progress', 'resolved'];

/** SPEC §9: the admin's contact forms are polled every 30 s (while the live connection is down). */
export const CONTACT_FORMS_POLL_MS = WEB.contactFormsPollMs;
const CONTACT_FORMS_PAGE_SIZE = 20;

/** Every query of the admin's contact forms starts with this, so one invalidation refreshes them all. */
export const contactFormsQueryKey = ['admin', 'contact-forms'] as const;

/** The contact form is open to visitors: a refusal is its failure toast, never a sign-in. */
export function useSendContactMessageMutation(errorToast: ErrorToast) {
  return useMutation({ mutationFn: api.contact.send, meta: { errorToast, redirectOnUnauthorized: false } });
}

/**
 * One page of the admin's contact forms at `filter`, with every status's count; polled every 30 s while the live
 * connection is down (its `admin` events refresh it otherwise).
 */
export function useContactFormsQuery(filter: ContactFormFilter, page: number) {
  const refetchInterval = usePollingFallback(CONTACT_FORMS_POLL_MS);
  return useQuery({
    queryKey: [...contactFormsQueryKey, { filter, page }],
    queryFn: () => api.admin.contactForms(filter, page, CONTACT_FORMS_PAGE_SIZE),
    refetchInterval,
    // The counts and the list stay on screen while another filter or page loads.
    placeholderData: keepPreviousData,
  });
}

/** Sets a form's status, then refetches every contact-form list and count (SPEC §4). */
export function useUpdateContactFormStatusMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: ({ id, status }: { id: number; status: ContactFormStatus }) => api.admin.setContactFormStatus(id, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactFormsQueryKey }),
  });
}

/**
 * How many contact forms are still new, for the admin panel's User Support badge (shown as 99+ above 99): polled
 * every 30 s like the support screen while the live connection is down, and refreshed with it after a status change
 * and on the stream's `admin` events. Asked only for admins; undefined until known (and for everyone else).
 */
export function useNewContactFormCount(): number | undefined {
  const { isAdmin } = useAuth();
  const refetchInterval = usePollingFallback(CONTACT_FORMS_POLL_MS);
  const { data } = useQuery({
    queryKey: [...contactFormsQueryKey, 'new-count'],
    queryFn: () => api.admin.contactForms('new', 1, 1),
    select: (list) => list.counts.new,
    refetchInterval,
    enabled: isAdmin,
  });
  return isAdmin ? data : undefined;
}
