import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '@/lib/browser';
import { ErrorBoundary, isIgnorableError } from './error-boundary';

function Boom(): never {
  throw new Error('render failed');
}

describe('error boundary', () => {
  // React and the boundary log caught errors; keep the test output readable.
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => vi.restoreAllMocks());

  it('shows the refresh screen when rendering fails', async () => {
    render(
      <ErrorBoundary>
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('Please refresh the page')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    expect(reloadPage).toHaveBeenCalled();
  });

  it('shows the refresh screen for an uncaught error elsewhere', () => {
    render(
      <ErrorBoundary>
        <p>content</p>
      </ErrorBoundary>,
    );
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('x is undefined') }));
    });
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });

  it('ignores DOMException errors and rejections', () => {
    render(
      <ErrorBoundary>
        <p>content</p>
      </ErrorBoundary>,
    );
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { error: new DOMException('aborted', 'AbortError') }));
      const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.defineProperty(rejection, 'reason', { value: new DOMException('denied', 'NotAllowedError') });
      window.dispatchEvent(rejection);
    });
    expect(screen.getByText('content')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });

  it('classifies DOMExceptions as ignorable, other errors not', () => {
    expect(isIgnorableError(new DOMException('quota', 'QuotaExceededError'))).toBe(true);
    expect(isIgnorableError(new Error('real bug'))).toBe(false);
    expect(isIgnorableError('a string')).toBe(false);
  });
});
