import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { redirectTo } from './browser';
import { createQueryClient, type ApiCallMeta } from './query-client';
import { getToasts } from './toast';

const unauthorized = () => new ApiError(401, '{"message":"Unauthorized"}', 'Unauthorized');
const failure = () => new ApiError(500, '{"message":"Boom"}', 'Internal Server Error');

async function failQuery(error: Error, meta?: ApiCallMeta): Promise<void> {
  const queryClient = createQueryClient();
  await queryClient.fetchQuery({ queryKey: ['test'], queryFn: () => Promise.reject(error), meta }).catch(() => undefined);
}

async function failMutation(error: Error, meta?: ApiCallMeta): Promise<void> {
  const observer = new MutationObserver(createQueryClient(), { mutationFn: () => Promise.reject(error), meta });
  await observer.mutate().catch(() => undefined);
}

describe('the query client answers failed calls in one place', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs the user in again when a query answers 401 (SPEC §8)', async () => {
    await failQuery(unauthorized());
    expect(getToasts()).toEqual([expect.objectContaining({ variant: 'destructive', title: 'Unauthorized', description: 'You are logged out. Logging in again...' })]);
    vi.advanceTimersByTime(500);
    expect(redirectTo).toHaveBeenCalledWith('/api/login');
  });

  it('leaves a query that may answer 401 as a plain answer alone: the current user (SPEC §4)', async () => {
    await failQuery(unauthorized(), { redirectOnUnauthorized: false });
    vi.runAllTimers();
    expect(getToasts()).toHaveLength(0);
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('shows no toast for a query failing otherwise: its screen shows the failure', async () => {
    await failQuery(failure());
    await failQuery(new Error('401: Unauthorized'));
    vi.runAllTimers();
    expect(getToasts()).toHaveLength(0);
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it("shows a failed mutation's own toast, worked out from the error when it is a function", async () => {
    await failMutation(failure(), { errorToast: { title: 'Error', description: 'Failed to delete photo. Please try again.' } });
    expect(getToasts().at(-1)).toMatchObject({ variant: 'destructive', title: 'Error', description: 'Failed to delete photo. Please try again.' });
    await failMutation(failure(), { errorToast: (error) => ({ title: 'Upload Failed', description: (error as ApiError).serverMessage('x') }) });
    expect(getToasts().at(-1)).toMatchObject({ variant: 'destructive', title: 'Upload Failed', description: 'Boom' });
    vi.runAllTimers();
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('answers a mutation\'s 401 with the sign-in instead of its toast, also when a step wrapped the 401', async () => {
    const errorToast = { title: 'Error', description: 'Failed to update photo. Please try again.' };
    await failMutation(unauthorized(), { errorToast });
    await failMutation(new Error('saving the bars failed', { cause: unauthorized() }), { errorToast });
    expect(getToasts().map((toast) => toast.title)).toEqual(['Unauthorized']);
    vi.advanceTimersByTime(500);
    expect(redirectTo).toHaveBeenCalledTimes(2);
  });

  it('shows the failure toast for a 401 where the screen opts out of the sign-in', async () => {
    await failMutation(unauthorized(), { redirectOnUnauthorized: false, errorToast: { title: 'Error', description: 'Failed to send message. Please try again.' } });
    vi.runAllTimers();
    expect(getToasts().at(-1)).toMatchObject({ title: 'Error', description: 'Failed to send message. Please try again.' });
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('shows nothing when the toast function answers nothing (a cancelled upload)', async () => {
    await failMutation(new DOMException('aborted', 'AbortError'), { errorToast: () => undefined });
    expect(getToasts()).toHaveLength(0);
  });

  it('answers background refetches too, such as a poll after the session ended', async () => {
    const queryClient = createQueryClient();
    let calls = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: ['polled'],
      queryFn: () => (++calls === 1 ? Promise.resolve('data') : Promise.reject(unauthorized())),
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('data'));
    await observer.refetch();
    unsubscribe();
    expect(getToasts()[0]).toMatchObject({ title: 'Unauthorized' });
  });
});
