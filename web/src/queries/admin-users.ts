import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { currentUserQueryKey } from './auth';

/** A user as GET /api/admin/users lists them (SPEC §3; `avatar` already follows the avatar rule). */
export interface AdminUser {
  id: string;
  displayName: string | null;
  email: string | null;
  /** The uploaded avatar (/uploads/…) or the provider's picture; null when only the initial is left. */
  avatar: string | null;
  firstName: string | null;
  lastName: string | null;
  isEnabled: boolean;
  isAdmin: boolean;
  createdAt: string | null;
}

/** The answer of GET /api/admin/users. */
export interface AdminUserPage {
  users: AdminUser[];
  total: number;
  totalPages: number;
}

/** The body of PATCH /api/admin/users/{id}: any subset of the four (SPEC §7 Admin). */
export interface AdminUserEdit {
  displayName?: string;
  email?: string;
  isEnabled?: boolean;
  isAdmin?: boolean;
}

export interface AdminUsersSearch {
  page: number;
  limit: number;
  /** Words to find in names and emails; blank lists everyone. */
  query: string;
}

export const adminUsersQueryKey = ['/api/admin/users'] as const;

export function adminUsersPageKey({ page, limit, query }: AdminUsersSearch) {
  return [...adminUsersQueryKey, { page, limit, query: query.trim() }] as const;
}

export function adminUsersUrl({ page, limit, query }: AdminUsersSearch): string {
  const params = new URLSearchParams({ page: String(page), limit: String(limit) });
  const q = query.trim();
  if (q) params.set('q', q);
  return `/api/admin/users?${params}`;
}

export const adminUsersApi = {
  list: (search: AdminUsersSearch) => apiJson<AdminUserPage>('GET', adminUsersUrl(search)),
  update: (id: string, edit: AdminUserEdit) => apiJson<AdminUser>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, edit),
  /** 204 on success; 403 for an admin account. */
  remove: (id: string) => apiJson<void>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`),
};

/** One page of the users list. The page on screen stays while the next one loads, so the table does not jump. */
export function useAdminUsersQuery(search: AdminUsersSearch) {
  return useQuery({
    queryKey: adminUsersPageKey(search),
    queryFn: () => adminUsersApi.list(search),
    placeholderData: keepPreviousData,
  });
}

/** Puts the server's copy of a changed user into every cached page that shows them. */
function replaceUser(queryClient: QueryClient, user: AdminUser): void {
  queryClient.setQueriesData<AdminUserPage>({ queryKey: adminUsersQueryKey }, (page) =>
    page ? { ...page, users: page.users.map((u) => (u.id === user.id ? user : u)) } : page,
  );
}

/** The key of the edit dialog's save for one user. */
export function editAdminUserMutationKey(userId: string) {
  return [...adminUsersQueryKey, userId, 'edit'] as const;
}

export interface UpdateAdminUserVariables {
  id: string;
  edit: AdminUserEdit;
  /** This change takes back the one just made (its toast offers no Undo of its own); not sent. */
  undo?: boolean;
}

/**
 * Feedback for a mutation. Given to useMutation rather than to mutate(), so it still runs when the row that started
 * it has left the screen (a deleted user, or one a changed name moved out of a search).
 */
export interface MutationFeedback<T, V> {
  onSuccess?: (result: T, variables: V) => void;
  onError?: (error: Error, variables: V) => void;
}

/**
 * PATCH /api/admin/users/{id}. The answer replaces the user in the list at once; the list is then refetched (a new
 * name or email may move them in or out of a search). An admin editing their own account also refreshes the session.
 */
export function useUpdateAdminUserMutation({
  currentUserId,
  mutationKey,
  onSuccess,
  onError,
}: {
  currentUserId: string | undefined;
  /** Names the mutation, so a component elsewhere can tell it is running (useIsMutating). */
  mutationKey?: readonly unknown[];
} & MutationFeedback<AdminUser, UpdateAdminUserVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn: ({ id, edit }: UpdateAdminUserVariables) => adminUsersApi.update(id, edit),
    onSuccess: (user, variables) => {
      replaceUser(queryClient, user);
      if (user.id === currentUserId) void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      onSuccess?.(user, variables);
    },
    onError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
  });
}

/** Lists that may show a deleted user's photos or votes; their removal follows by events, a moment later. */
const FOLLOWING_DELETION = ['/api/gallery', '/api/photos', '/api/stats', '/api/admin/photos', '/api/admin/stats'];

/** DELETE /api/admin/users/{id}, then the list and everything that showed the user's photos are refetched. */
export function useDeleteAdminUserMutation({ onSuccess, onError }: MutationFeedback<void, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminUsersApi.remove(id),
    onError,
    onSuccess: (answer, id) => {
      queryClient.setQueriesData<AdminUserPage>({ queryKey: adminUsersQueryKey }, (page) =>
        page && page.users.some((u) => u.id === id) ? { ...page, users: page.users.filter((u) => u.id !== id), total: page.total - 1 } : page,
      );
      void queryClient.invalidateQueries({
        predicate: ({ queryKey: [first] }) =>
          typeof first === 'string' && FOLLOWING_DELETION.some((prefix) => first === prefix || first.startsWith(`${prefix}/`)),
      });
      onSuccess?.(answer, id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
  });
}
