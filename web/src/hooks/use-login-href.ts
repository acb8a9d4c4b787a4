import { useLocation } from 'react-router-dom';
import { loginHref } from '@/lib/browser';

/** The sign-in route, coming back to the page being shown (its path and query) once signed in. */
export function useLoginHref(): string {
  const { pathname, search } = useLocation();
  return loginHref(pathname + search);
}
