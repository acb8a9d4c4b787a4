import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AppLayout } from '@/components/layout/app-layout';
import { PageSkeleton } from '@/components/page-skeleton';

/** Pathless parent route: its child pages render inside the navbar-and-footer frame. */
export function LayoutRoute() {
  return (
    <AppLayout>
      {/* Inside the frame, so the navbar stays put while a lazily loaded page arrives. */}
      <Suspense fallback={<PageSkeleton />}>
        <Outlet />
      </Suspense>
    </AppLayout>
  );
}
