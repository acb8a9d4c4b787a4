import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/test/fetch-mock';
import { renderApp } from '@/test/render-app';
import { preloadRoute } from './app-routes';
import { lazyPage } from '@/lib/lazy-page';
import { HomePage } from './lazy-pages';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyPage', () => {
  it('shows the fallback until the code arrives, then the page', async () => {
    const code = deferred<typeof Greeting>();
    const Page = lazyPage(() => code.promise);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page name="Sam" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    await act(async () => code.resolve(Greeting));
    expect(await screen.findByText('Hello Sam')).toBeInTheDocument();
  });

  it('renders a preloaded page at once, without suspending', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads += 1;
      return Greeting;
    });
    let loaded = false;
    void Page.loaded.then(() => (loaded = true));
    await Page.preload();
    await Page.preload();
    expect(loads).toBe(1);
    expect(loaded).toBe(true);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page name="Alex" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Alex')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('loads again after a failed preload', async () => {
    let attempts = 0;
    const Page = lazyPage(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('network down');
      return Greeting;
    });
    await expect(Page.preload()).rejects.toThrow('network down');
    await Page.preload();
    expect(attempts).toBe(2);
  });
});

describe('preloadRoute', () => {
  it('brings the frame and the page of a framed route, so the first render is the whole page', async () => {
    mockFetch({ 'GET /api/auth/user': { status: 401, text: 'Unauthorized' } });
    await preloadRoute('/legal', 'signed-out');
    renderApp('/legal');
    // No skeleton first: the heading and the footer are there in the first render.
    expect(screen.getByRole('heading', { name: 'Legal Information' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('brings the gallery home for a signed-in member at /', async () => {
    await preloadRoute('/', 'signed-in');
    let loaded = false;
    void HomePage.loaded.then(() => (loaded = true));
    await Promise.resolve();
    expect(loaded).toBe(true);
  });
});
