import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RetryingImage, withRetryParams } from './retrying-image';

describe('withRetryParams', () => {
  it('adds retry and time after the existing query, or starts one', () => {
    expect(withRetryParams('/api/uploads/a.jpg?size=thumb&v=3', 2, 123)).toBe('/api/uploads/a.jpg?size=thumb&v=3&retry=2&time=123');
    expect(withRetryParams('/uploads/a.png', 1, 5)).toBe('/uploads/a.png?retry=1&time=5');
    expect(withRetryParams('/uploads/a.png', 0, 5)).toBe('/uploads/a.png');
  });
});

describe('RetryingImage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-07-28T10:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const image = () => screen.getByRole('img', { name: 'A crack' });

  it('retries after 1 s, 2 s and 3 s with retry and time parameters, then shows Image Error', () => {
    render(
      <RetryingImage
        src="/api/uploads/a.jpg?size=thumb&v=3"
        sources={[
          { url: '/api/uploads/a.jpg?size=thumb&v=3', width: 480 },
          { url: '/api/uploads/a.jpg?size=display&v=3', width: 2048 },
        ]}
        alt="A crack"
      />,
    );
    expect(image()).toHaveAttribute('src', '/api/uploads/a.jpg?size=thumb&v=3');

    const start = Date.now();
    for (const attempt of [1, 2, 3]) {
      fireEvent.error(image());
      act(() => vi.advanceTimersByTime(attempt * 1000 - 1));
      expect(image().getAttribute('src')).not.toContain(`retry=${attempt}`);
      act(() => vi.advanceTimersByTime(1));
      const time = start + [0, 1000, 3000, 6000][attempt]!;
      expect(image()).toHaveAttribute('src', `/api/uploads/a.jpg?size=thumb&v=3&retry=${attempt}&time=${time}`);
      expect(image()).toHaveAttribute(
        'srcset',
        `/api/uploads/a.jpg?size=thumb&v=3&retry=${attempt}&time=${time} 480w, /api/uploads/a.jpg?size=display&v=3&retry=${attempt}&time=${time} 2048w`,
      );
    }

    fireEvent.error(image());
    expect(screen.getByText('Image Error')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A crack (Image Error)' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByRole('img', { name: 'A crack' })).not.toBeInTheDocument();
  });

  it('limits the candidates to a media query with <picture>, retrying them too', () => {
    render(
      <RetryingImage
        src="/api/uploads/a.jpg?size=thumb&v=3"
        sources={[
          { url: '/api/uploads/a.jpg?size=thumb&v=3', width: 480 },
          { url: '/api/uploads/a.jpg?size=display&v=3', width: 2048 },
        ]}
        sourcesMedia="(min-width: 640px)"
        sizes="390px"
        alt="A crack"
      />,
    );
    const source = () => image().closest('picture')!.querySelector('source')!;
    expect(image()).not.toHaveAttribute('srcset');
    expect(image()).not.toHaveAttribute('sizes');
    expect(source()).toHaveAttribute('media', '(min-width: 640px)');
    expect(source()).toHaveAttribute('sizes', '390px');
    expect(source()).toHaveAttribute('srcset', '/api/uploads/a.jpg?size=thumb&v=3 480w, /api/uploads/a.jpg?size=display&v=3 2048w');

    fireEvent.error(image());
    act(() => vi.advanceTimersByTime(1000));
    expect(source().getAttribute('srcset')).toContain('size=display&v=3&retry=1&time=');
    expect(image().getAttribute('src')).toContain('size=thumb&v=3&retry=1&time=');
  });

  it('starts over for a new address', () => {
    const { rerender } = render(<RetryingImage src="/uploads/a.png" alt="A crack" />);
    fireEvent.error(image());
    act(() => vi.advanceTimersByTime(1000));
    expect(image().getAttribute('src')).toContain('retry=1');
    rerender(<RetryingImage src="/uploads/b.png" alt="A crack" />);
    expect(image()).toHaveAttribute('src', '/uploads/b.png');
  });

  it('stops its timer when unmounted', () => {
    const { unmount } = render(<RetryingImage src="/uploads/a.png" alt="A crack" />);
    fireEvent.error(image());
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
