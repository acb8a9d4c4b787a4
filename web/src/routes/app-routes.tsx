import { isValidElement, Suspense, type ReactElement } from 'react';
import { createRoutesFromElements, matchRoutes, Route, Routes, useLocation, type RouteObject } from 'react-router-dom';
import { SignInRequiredCard } from '@/components/auth/sign-in-required-card';
import { UploadSignInCard } from '@/components/auth/upload-sign-in-card';
import { PageSkeleton } from '@/components/page-skeleton';
import { useAuth, type SessionStatus } from '@/hooks/use-auth';
import { LandingPage } from '@/pages/landing';
import { NotFoundPage } from '@/pages/not-found';
import { LayoutRoute } from './layout-route';
import {
  AdminDeskPage,
  AdminPage,
  AdminRatersPage,
  AdminSupportPage,
  AdminUsersPage,
  ContactPage,
  DashboardPage,
  GoogleDriveSetupPage,
  HomePage,
  LegalPage,
  NotificationsPage,
  ProfilePage,
  SettingsPage,
  TermsAcceptancePage,
  UploadPage,
} from './lazy-pages';

/**
 * The route table of SPEC §2 "Route availability by state": one set of routes per session state.
 * The landing page and the terms-acceptance screen bring their own frame; every other page sits in
 * LayoutRoute (navbar and footer).
 *
 * The sets are swapped inside a single <Routes>, so a page present in both the old and the new state
 * (the terms screen while the user is refetched after accepting, /legal or /contact once the session
 * loads) stays mounted and keeps its state.
 */
export function AppRoutes() {
  const { status } = useAuth();
  const { pathname } = useLocation();
  // Rendering would find the frame and then the page inside it: ask for both at once. During render, not in
  // an effect, because a navigation renders as a transition and commits (runs effects) only once both are here.
  void preloadRoute(pathname, status).catch(() => {});
  return (
    // While the frame of the first framed page loads (the pages bring their own boundaries).
    <Suspense fallback={<PageSkeleton />}>
      <Routes>{ROUTES_BY_STATUS[status]}</Routes>
    </Suspense>
  );
}

/**
 * Loads the code of what `pathname` shows in a session state (its frame and page); main.tsx waits for it
 * before the first render, so the first page appears whole.
 */
export async function preloadRoute(pathname: string, status: SessionStatus = 'loading'): Promise<void> {
  ROUTE_OBJECTS[status] ??= createRoutesFromElements(ROUTES_BY_STATUS[status]);
  const matches = matchRoutes(ROUTE_OBJECTS[status], pathname) ?? [];
  await Promise.all(matches.map(({ route }) => preloadOf(route.element)?.()));
}

function preloadOf(element: RouteObject['element']): (() => Promise<unknown>) | undefined {
  if (!isValidElement(element) || typeof element.type !== 'function') return undefined;
  const { preload } = element.type as { preload?: () => Promise<unknown> };
  return typeof preload === 'function' ? preload : undefined;
}

/** The terms screen brings its own frame, so it waits for its code outside LayoutRoute. */
const TermsAcceptanceRoute = Object.assign(
  function TermsAcceptanceRoute() {
    return (
      <Suspense fallback={<PageSkeleton />}>
        <TermsAcceptancePage />
      </Suspense>
    );
  },
  { preload: TermsAcceptancePage.preload },
);

/** The public home; while the session is checked, a neutral skeleton rather than the marketing page. */
function PublicHome() {
  const { isLoading } = useAuth();
  return isLoading ? <PageSkeleton /> : <LandingPage />;
}

/** Signed out or still loading: public pages, and sign-in cards in place of protected pages. */
const SIGNED_OUT_ROUTES = (
  <>
    <Route path="/terms-acceptance" element={<TermsAcceptanceRoute />} />
    <Route path="/" element={<PublicHome />} />
    <Route element={<LayoutRoute />}>
      <Route path="/upload" element={<UploadSignInCard />} />
      <Route path="/dashboard" element={<SignInRequiredCard title="Dashboard" />} />
      <Route path="/admin" element={<SignInRequiredCard title="Admin" />} />
      <Route path="/admin/users" element={<SignInRequiredCard title="Admin" />} />
      <Route path="/admin/desk" element={<SignInRequiredCard title="Admin" />} />
      <Route path="/admin/support" element={<SignInRequiredCard title="Admin" />} />
      <Route path="/admin/raters" element={<SignInRequiredCard title="Admin" />} />
      <Route path="/notifications" element={<SignInRequiredCard title="Notifications" />} />
      <Route path="/profile" element={<SignInRequiredCard title="Profile" />} />
      <Route path="/settings" element={<SignInRequiredCard title="Settings" />} />
      <Route path="/legal" element={<LegalPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/google-drive-setup" element={<GoogleDriveSetupPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </>
);

/** Signed in without accepted terms: only the legal and contact pages; every other path asks for acceptance. */
const TERMS_PENDING_ROUTES = (
  <>
    <Route path="/terms-acceptance" element={<TermsAcceptanceRoute />} />
    <Route element={<LayoutRoute />}>
      <Route path="/legal" element={<LegalPage />} />
      <Route path="/contact" element={<ContactPage />} />
    </Route>
    <Route path="*" element={<TermsAcceptanceRoute />} />
  </>
);

/** Signed in with accepted terms: the whole product; unknown paths show the not-found page. */
const SIGNED_IN_ROUTES = (
  <>
    <Route path="/terms-acceptance" element={<TermsAcceptanceRoute />} />
    <Route element={<LayoutRoute />}>
      <Route path="/" element={<HomePage />} />
      <Route path="/upload" element={<UploadPage />} />
      <Route path="/dashboard" element={<DashboardPage />} />
      <Route path="/admin" element={<AdminPage />} />
      <Route path="/admin/users" element={<AdminUsersPage />} />
      <Route path="/admin/desk" element={<AdminDeskPage />} />
      <Route path="/admin/support" element={<AdminSupportPage />} />
      <Route path="/admin/raters" element={<AdminRatersPage />} />
      <Route path="/notifications" element={<NotificationsPage />} />
      <Route path="/profile" element={<ProfilePage />} />
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/legal" element={<LegalPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/google-drive-setup" element={<GoogleDriveSetupPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </>
);

const ROUTE_OBJECTS: Partial<Record<SessionStatus, RouteObject[]>> = {};

const ROUTES_BY_STATUS: Record<SessionStatus, ReactElement> = {
  loading: SIGNED_OUT_ROUTES,
  'signed-out': SIGNED_OUT_ROUTES,
  'terms-pending': TERMS_PENDING_ROUTES,
  'signed-in': SIGNED_IN_ROUTES,
};
