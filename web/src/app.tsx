import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ErrorBoundary } from '@/components/error-boundary';
import { useToasts } from '@/hooks/use-toasts';
import { ThemeProvider } from '@/hooks/use-theme';
import { AppRoutes } from '@/routes/app-routes';
import { Toaster } from '@/routes/lazy-pages';
import { ScrollToTop } from '@/routes/scroll-to-top';

/**
 * The toast viewport mounts once its code is here (the screens that raise toasts bring it), or with the
 * first toast raised anywhere else; the landing page never loads it otherwise.
 */
function LazyToaster() {
  const hasToasts = useToasts().length > 0;
  const [needed, setNeeded] = useState(hasToasts);
  if (hasToasts && !needed) setNeeded(true);
  useEffect(() => {
    let mounted = true;
    void Toaster.loaded.then(() => mounted && setNeeded(true));
    return () => {
      mounted = false;
    };
  }, []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/** Everything a screen needs around it except the router (tests bring a MemoryRouter). */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          {children}
          <LazyToaster />
        </ThemeProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

/** The app as main.tsx renders it, with the query client it has already asked about the session. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <ScrollToTop />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
