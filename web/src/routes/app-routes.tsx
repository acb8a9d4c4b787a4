import { Suspense, type ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { SignInRequiredCard } from '@/components/auth/sign-in-required-card';
import { UploadSignInCard } from '@/components/auth/upload-sign-in-card';
import { PageSkeleton } from '@/components/page-skeleton';
import { useAuth, type SessionStatus } from '@/hooks/use-auth';
import { HomePage } from '@/pages/home';
import { LandingPage } from '@/pages/landing';
import { NotFoundPage } from '@/pages/not-found';
import { LayoutRoute } from './layout-route';
import {
  AdminPage,
  AdminSupportPage,
  AdminUsersPage,
  ContactPage,
  DashboardPage,
  GoogleDriveSetupPage,
  LegalPage,
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
  return <Routes>{ROUTES_BY_STATUS[status]}</Routes>;
}

/** The terms screen brings its own frame, so it waits for its code outside LayoutRoute. */
function TermsAcceptanceRoute() {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <TermsAcceptancePage />
    </Suspense>
  );
}

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
      <Route path="/admin/support" element={<SignInRequiredCard title="Admin" />} />
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
      <Route path="/admin/support" element={<AdminSupportPage />} />
      <Route path="/profile" element={<ProfilePage />} />
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/legal" element={<LegalPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/google-drive-setup" element={<GoogleDriveSetupPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </>
);

const ROUTES_BY_STATUS: Record<SessionStatus, ReactElement> = {
  loading: SIGNED_OUT_ROUTES,
  'signed-out': SIGNED_OUT_ROUTES,
  'terms-pending': TERMS_PENDING_ROUTES,
  'signed-in': SIGNED_IN_ROUTES,
};
