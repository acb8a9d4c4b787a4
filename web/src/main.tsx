import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { SessionStatus } from '@/hooks/use-auth';
import { createQueryClient } from '@/lib/query-client';
import type { User } from '@/lib/types';
import { currentUserQuery, currentUserQueryKey } from '@/queries/auth';
import { App } from './app';
import { preloadRoute } from './routes/app-routes';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** Past this, the app renders anyway and shows its skeletons while the rest arrives. */
const STARTUP_WAIT_MS = 3000;

const queryClient = createQueryClient();

/**
 * Before the first render, the app learns who is signed in (index.html has already asked) and fetches the
 * code of the screen that session sees at this URL: the first render is then the page itself, not a
 * skeleton that is replaced once the session is known and grows, pushing the footer down (layout shift),
 * once the page's code has arrived. Any failure here only means the app renders sooner.
 */
async function prepareFirstScreen(): Promise<void> {
  await queryClient.prefetchQuery(currentUserQuery);
  const user = queryClient.getQueryData<User>(currentUserQueryKey) ?? null;
  const status: SessionStatus = !user ? 'signed-out' : user.hasAcceptedTerms ? 'signed-in' : 'terms-pending';
  await preloadRoute(window.location.pathname, status);
}

// As a transition, React renders the first screen in slices of a few milliseconds and lets the browser
// handle input in between, instead of one long task (Total Blocking Time on slow phones).
const render = () =>
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );

const waited = new Promise((resolve) => setTimeout(resolve, STARTUP_WAIT_MS));
Promise.race([prepareFirstScreen(), waited]).then(render, render);
