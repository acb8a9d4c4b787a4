import { lazyPage } from '@/lib/lazy-page';

/**
 * Pages loaded on first visit, so the first screen downloads only its own code: the landing page (and
 * the not-found page and sign-in cards, which are tiny) stay in the main bundle; the framed pages' navbar
 * with its menus and sheet, the signed-in home with the gallery, and every other page come in their own
 * files.
 */
/**
 * The toast viewport (Radix Toast) is not on the landing page until a toast is raised there. The screens
 * that raise toasts (every framed page and the terms screen) bring it with their own code, so their
 * toasts show at once.
 */
export const Toaster = lazyPage(() => import('@/components/ui/toaster').then((m) => m.Toaster));
export const AppLayout = lazyPage(() =>
  Promise.all([import('@/components/layout/app-layout'), Toaster.preload()]).then(([m]) => m.AppLayout),
);
export const HomePage = lazyPage(() => import('@/pages/home').then((m) => m.HomePage));
export const AdminPage = lazyPage(() => import('@/pages/admin').then((m) => m.AdminPage));
export const AdminDeskPage = lazyPage(() => import('@/pages/admin-desk').then((m) => m.AdminDeskPage));
export const AdminRatersPage = lazyPage(() => import('@/pages/admin-raters').then((m) => m.AdminRatersPage));
export const AdminSupportPage = lazyPage(() => import('@/pages/admin-support').then((m) => m.AdminSupportPage));
export const AdminUsersPage = lazyPage(() => import('@/pages/admin-users').then((m) => m.AdminUsersPage));
export const ContactPage = lazyPage(() => import('@/pages/contact').then((m) => m.ContactPage));
export const DashboardPage = lazyPage(() => import('@/pages/dashboard').then((m) => m.DashboardPage));
export const GoogleDriveSetupPage = lazyPage(() => import('@/pages/google-drive-setup').then((m) => m.GoogleDriveSetupPage));
export const LegalPage = lazyPage(() => import('@/pages/legal').then((m) => m.LegalPage));
export const NotificationsPage = lazyPage(() => import('@/pages/notifications').then((m) => m.NotificationsPage));
export const ProfilePage = lazyPage(() => import('@/pages/profile').then((m) => m.ProfilePage));
export const SettingsPage = lazyPage(() => import('@/pages/settings').then((m) => m.SettingsPage));
export const TermsAcceptancePage = lazyPage(() =>
  Promise.all([import('@/pages/terms-acceptance'), Toaster.preload()]).then(([m]) => m.TermsAcceptancePage),
);
export const UploadPage = lazyPage(() => import('@/pages/upload').then((m) => m.UploadPage));
