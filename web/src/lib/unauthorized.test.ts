import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectTo } from './browser';
import { getToasts } from './toast';
import { notifyUnauthorizedAndRedirect } from './unauthorized';

describe('unauthorized handling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('toasts, then redirects to /api/login after 500 ms', () => {
    notifyUnauthorizedAndRedirect();
    expect(getToasts()[0]).toMatchObject({
      variant: 'destructive',
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
    });
    vi.advanceTimersByTime(499);
    expect(redirectTo).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirectTo).toHaveBeenCalledWith('/api/login');
  });

  it('comes back to the page the user was on once signed in again', () => {
    window.history.replaceState(null, '', '/admin/users?page=2');
    try {
      notifyUnauthorizedAndRedirect();
      vi.advanceTimersByTime(500);
      expect(redirectTo).toHaveBeenCalledWith('/api/login?returnTo=/admin/users%3Fpage%3D2');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
