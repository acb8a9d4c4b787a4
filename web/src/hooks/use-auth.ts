import { useCurrentUserQuery } from '@/queries/auth';
import type { User } from '@/lib/types';

/** The four session states of SPEC §4. */
export type SessionStatus = 'loading' | 'signed-out' | 'terms-pending' | 'signed-in';

export interface AuthState {
  status: SessionStatus;
  user: User | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  isAdmin: boolean;
}

export function useAuth(): AuthState {
  const { data, isLoading, isError } = useCurrentUserQuery();
  const user = !isError && data ? data : null;
  const status: SessionStatus = isLoading
    ? 'loading'
    : !user
      ? 'signed-out'
      : user.hasAcceptedTerms
        ? 'signed-in'
        : 'terms-pending';
  return {
    status,
    user,
    isLoading,
    isAuthenticated: user !== null,
    isAdmin: user?.isAdmin === true,
  };
}
