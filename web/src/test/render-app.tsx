import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '@/app';
import { createQueryClient } from '@/lib/query-client';
import { AppRoutes } from '@/routes/app-routes';

/** Shows the router's current path so tests can assert in-app navigation. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.hash}
    </output>
  );
}

/** Renders the whole app (providers and routes) at `path`, as a browser visiting it would. */
export function renderApp(path = '/') {
  const queryClient = createQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}

/** The card holding the heading `name` (a settings or profile section), to look inside it. */
export async function cardOf(name: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name });
  const card = heading.closest<HTMLElement>('[data-slot="card"]');
  if (!card) throw new Error(`The heading "${name}" is not in a card`);
  return card;
}
