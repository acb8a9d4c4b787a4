import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageSkeleton } from '@/components/page-skeleton';
import { AppLayout } from './lazy-pages';

/**
 * Pathless parent route: its child pages render inside the navbar-and-footer frame. The frame's code (the
 * navbar with its menus and mobile sheet) loads with the first framed page, not with the landing page.
 */
export const LayoutRoute = Object.assign(
  function LayoutRoute() {
    return (
      <AppLayout>
        {/* Inside the frame, so the navbar stays put while a lazily loaded page arrives. */}
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </AppLayout>
    );
  },
  { preload: AppLayout.preload },
);
