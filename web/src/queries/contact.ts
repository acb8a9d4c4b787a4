import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/hooks/use-auth';
import { api, apiJson } from '@/lib/api';

/** SPEC §4: a contact form moves freely between these. */
export const CONTACT_FORM_STATUSES = ['new', 'in_progress', 'resolved'] as const;
export type ContactFormStatus = (typeof CONTACT_FORM_STATUSES)[number];
/** The support screen's filters: one status, or all of them. */
export type ContactFormFilter = ContactFormStatus | 'all';

/** A contact form as GET /api/admin/contact-forms lists it. */
export interface ContactFormItem {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactFormStatus;
  createdAt: string | null;
  updatedAt: string | null;
}

/** How many forms are at each status, and in all, whatever the filter. */
export type ContactFormCounts = Record<ContactFormStatus, number> & { total: number };

export interface ContactFormList {
  items: ContactFormItem[];
  counts: ContactFormCounts;
  /** Forms matching the filter. */
  total: number;
  page: number;
  totalPages: number;
}

/** SPEC §9: the admin's contact forms are polled every 30 s. */
export const CONTACT_FORMS_POLL_MS = 30_000;
export const CONTACT_FORMS_PAGE_SIZE = 20;

/** Every query of the admin's contact forms starts with this, so one invalidation refreshes them all. */
export const contactFormsQueryKey = ['/api/admin/contact-forms'] as const;

export const contactFormsApi = {
  list: (filter: ContactFormFilter, page: number, limit = CONTACT_FORMS_PAGE_SIZE) =>
    apiJson<ContactFormList>('GET', `/api/admin/contact-forms?status=${filter}&page=${page}&limit=${limit}`),
  setStatus: (id: number, status: ContactFormStatus) =>
    apiJson<ContactFormItem>('PATCH', `/api/admin/contact-forms/${id}/status`, { status }),
};

export function useSendContactMessageMutation() {
  return useMutation({ mutationFn: api.contact.send });
}

/** One page of the admin's contact forms at `filter`, with every status's count; polled every 30 s. */
export function useContactFormsQuery(filter: ContactFormFilter, page: number) {
  return useQuery({
    queryKey: [...contactFormsQueryKey, { filter, page }],
    queryFn: () => contactFormsApi.list(filter, page),
    refetchInterval: CONTACT_FORMS_POLL_MS,
    // The counts and the list stay on screen while another filter or page loads.
    placeholderData: keepPreviousData,
  });
}

/** Sets a form's status, then refetches every contact-form list and count (SPEC §4). */
export function useUpdateContactFormStatusMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: ContactFormStatus }) => contactFormsApi.setStatus(id, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactFormsQueryKey }),
  });
}

/**
 * How many contact forms are still new, for the admin panel's User Support badge (shown as 99+ above 99): polled
 * every 30 s like the support screen, and refreshed with it after a status change. Asked only for admins; undefined
 * until known (and for everyone else).
 */
export function useNewContactFormCount(): number | undefined {
  const { isAdmin } = useAuth();
  const { data } = useQuery({
    queryKey: [...contactFormsQueryKey, 'new-count'],
    queryFn: () => contactFormsApi.list('new', 1, 1),
    select: (list) => list.counts.new,
    refetchInterval: CONTACT_FORMS_POLL_MS,
    enabled: isAdmin,
  });
  return isAdmin ? data : undefined;
}
