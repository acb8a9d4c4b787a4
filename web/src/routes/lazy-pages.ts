import { lazy } from 'react';

/**
 * Pages loaded on first visit, so the first screen (landing or gallery home) downloads less code.
 * The landing, home and not-found pages stay in the main bundle.
 */
export const AdminPage = lazy(() => import('@/pages/admin').then((m) => ({ default: m.AdminPage })));
export const AdminSupportPage = lazy(() =>
  import('@/pages/admin-support').then((m) => ({ default: m.AdminSupportPage })),
);
export const AdminUsersPage = lazy(() => import('@/pages/admin-users').then((m) => ({ default: m.AdminUsersPage })));
export const ContactPage = lazy(() => import('@/pages/contact').then((m) => ({ default: m.ContactPage })));
export const DashboardPage = lazy(() => import('@/pages/dashboard').then((m) => ({ default: m.DashboardPage })));
export const GoogleDriveSetupPage = lazy(() =>
  import('@/pages/google-drive-setup').then((m) => ({ default: m.GoogleDriveSetupPage })),
);
export const LegalPage = lazy(() => import('@/pages/legal').then((m) => ({ default: m.LegalPage })));
export const ProfilePage = lazy(() => import('@/pages/profile').then((m) => ({ default: m.ProfilePage })));
export const SettingsPage = lazy(() => import('@/pages/settings').then((m) => ({ default: m.SettingsPage })));
export const TermsAcceptancePage = lazy(() =>
  import('@/pages/terms-acceptance').then((m) => ({ default: m.TermsAcceptancePage })),
);
export const UploadPage = lazy(() => import('@/pages/upload').then((m) => ({ default: m.UploadPage })));
