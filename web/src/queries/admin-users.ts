import { keepPreviousData, partialMatchKey, useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { api, type AdminUsersSearch } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { AdminUser, AdminUserEdit, AdminUserPage } from '@/lib/types';
import { currentUserQueryKey } from './auth';

/** Every query of the admin's users list starts with this. */
const adminUsersQueryKey = ['admin', 'users'] as const;

function adminUsersPageKey({ page, limit, query }: AdminUsersSearch) {
  return [...adminUsersQueryKey, { page, limit, query: query.trim() }] as const;
}

/** One page of the users list. The page on screen stays while the next one loads, so the table does not jump. */
export function useAdminUsersQuery(search: AdminUsersSearch) {
  return useQuery({
    queryKey: adminUsersPageKey(search),
    queryFn: () => api.admin.users(search),
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
interface MutationFeedback<T, V> {
  onSuccess?: (result: T, variables: V) => void;
  onError?: (error: Error, variables: V) => void;
  errorToast?: ErrorToast;
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
  errorToast,
}: {
  currentUserId: string | undefined;
  /** Names the mutation, so a component elsewhere can tell it is running (useIsMutating). */
  mutationKey?: readonly unknown[];
} & MutationFeedback<AdminUser, UpdateAdminUserVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn: ({ id, edit }: UpdateAdminUserVariables) => api.admin.updateUser(id, edit),
    onSuccess: (user, variables) => {
      replaceUser(queryClient, user);
      if (user.id === currentUserId) void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      onSuccess?.(user, variables);
    },
    onError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
    meta: { errorToast },
  });
}

/** Lists that may show a deleted user's photos or votes; their removal follows by events, a moment later. */
const FOLLOWING_DELETION: QueryKey[] = [['gallery'], ['photos'], ['stats'], ['admin', 'photos'], ['admin', 'stats']];

/** DELETE /api/admin/users/{id}, then the list and everything that showed the user's photos are refetched. */
export function useDeleteAdminUserMutation({ onSuccess, onError, errorToast }: MutationFeedback<void, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.admin.removeUser(id),
    onError,
    onSuccess: (answer, id) => {
      queryClient.setQueriesData<AdminUserPage>({ queryKey: adminUsersQueryKey }, (page) =>
        page && page.users.some((u) => u.id === id) ? { ...page, users: page.users.filter((u) => u.id !== id), total: page.total - 1 } : page,
      );
      void queryClient.invalidateQueries({ predicate: ({ queryKey }) => FOLLOWING_DELETION.some((prefix) => partialMatchKey(queryKey, prefix)) });
      onSuccess?.(answer, id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
    meta: { errorToast },
  });
}
