import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Bell, Lock, Palette, RotateCw, ShieldCheck } from 'lucide-react';
import { PageContainer, PageHeader } from '@/components/page-header';
import { PageSkeleton } from '@/components/page-skeleton';
import { AccountActions } from '@/components/settings/account-actions';
import { AccountInformation } from '@/components/settings/account-information';
import { SettingSwitchRow } from '@/components/settings/setting-switch-row';
import { SettingsSection } from '@/components/settings/settings-section';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useTheme } from '@/hooks/use-theme';
import { toast } from '@/lib/toast';
import { notifyUnauthorizedAndRedirect } from '@/lib/unauthorized';
import { cn } from '@/lib/utils';
import {
  useNotificationSettingsQuery,
  useUpdateNotificationSettingMutation,
  type NotificationPreference,
} from '@/queries/notifications';

// Notification preferences are kept by the server (GET and PUT /api/user/notification-settings), both on until changed.
// Privacy preferences live only in this page's state (SPEC §4): nothing is sent to a server.
const DEFAULT_NOTIFICATIONS = { email: true, push: true };
const DEFAULT_PRIVACY = { publicProfile: true, showEmail: false };
const NOTIFICATION_LABELS: Record<NotificationPreference, string> = { email: 'Email notifications', push: 'Push notifications' };
const NOTIFICATION_SAVE_FAILED = { title: 'Error', description: 'Failed to update notification settings. Please try again.' };

function onOff(enabled: boolean): string {
  return enabled ? 'enabled' : 'disabled';
}

export function SettingsPage() {
  const { user, isLoading, isAuthenticated } = useAuth();
  const { theme, setTheme } = useTheme();
  useDocumentTitle('Settings');
  const [privacy, setPrivacy] = useState(DEFAULT_PRIVACY);
  const notificationSettings = useNotificationSettingsQuery();
  const saveNotification = useUpdateNotificationSettingMutation(NOTIFICATION_SAVE_FAILED, (key, enabled) =>
    toast({ title: 'Settings Updated', description: `${NOTIFICATION_LABELS[key]} ${onOff(enabled)}.` }),
  );

  useEffect(() => {
    if (!isLoading && !isAuthenticated) notifyUnauthorizedAndRedirect();
  }, [isLoading, isAuthenticated]);

  if (!user) return <PageSkeleton label="Loading settings" />;

  // Until the member's own preferences are here, the defaults show, and cannot be changed.
  const notifications = notificationSettings.data ?? DEFAULT_NOTIFICATIONS;
  const notificationsReady = notificationSettings.isSuccess;
  const updateNotification = (key: NotificationPreference, enabled: boolean) => saveNotification.mutate({ key, enabled });

  const updatePrivacy = (key: keyof typeof DEFAULT_PRIVACY, enabled: boolean, description: string) => {
    setPrivacy((current) => ({ ...current, [key]: enabled }));
    toast({ title: 'Privacy Settings Updated', description });
  };

  return (
    <PageContainer className="max-w-3xl">
      <PageHeader title="Settings" description="Manage your account, notifications, appearance and privacy." />
      <div className="mt-8 flex flex-col gap-6">
        <AccountInformation user={user} />

        <SettingsSection icon={Bell} title="Notification Preferences" description="Choose how we keep you posted.">
          <div className="divide-y">
            <SettingSwitchRow
              id="email-notifications"
              label="Email Notifications"
              description="Receive email notifications for votes, comments and updates."
              checked={notifications.email}
              onCheckedChange={(enabled) => updateNotification('email', enabled)}
              disabled={!notificationsReady}
              note={notificationSettings.data?.emailAvailable === false ? 'This site does not send email yet.' : undefined}
            />
            <SettingSwitchRow
              id="push-notifications"
              label="Push Notifications"
              description="Receive push notifications in your browser."
              checked={notifications.push}
              onCheckedChange={(enabled) => updateNotification('push', enabled)}
              disabled={!notificationsReady}
            />
          </div>
          {notificationSettings.isError && (
            <div role="alert" className="mt-2 flex flex-wrap items-center gap-3 rounded-md border p-3 text-sm">
              <span>Your notification preferences could not be loaded.</span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => void notificationSettings.refetch()}
                disabled={notificationSettings.isRefetching}
              >
                <RotateCw className={cn(notificationSettings.isRefetching && 'animate-spin')} aria-hidden="true" />
                Try again
              </Button>
            </div>
          )}
        </SettingsSection>

        <SettingsSection icon={Palette} title="Appearance" description="Customize how Snap Cracks looks for you.">
          <SettingSwitchRow
            id="dark-mode"
            label="Dark Mode"
            description="Use a dark theme that is easier on the eyes at night."
            checked={theme === 'dark'}
            onCheckedChange={(enabled) => setTheme(enabled ? 'dark' : 'light')}
          />
        </SettingsSection>

        <SettingsSection icon={Lock} title="Privacy Settings" description="Control what other members can see.">
          <div className="divide-y">
            <SettingSwitchRow
              id="public-profile"
              label="Public Profile"
              description="Let other members see your profile and photos."
              checked={privacy.publicProfile}
              onCheckedChange={(enabled) =>
                updatePrivacy('publicProfile', enabled, `Your profile is now ${enabled ? 'public' : 'private'}.`)
              }
            />
            <SettingSwitchRow
              id="show-email"
              label="Show Email Address"
              description="Show your email address on your public profile."
              checked={privacy.showEmail}
              onCheckedChange={(enabled) =>
                updatePrivacy('showEmail', enabled, `Your email address is now ${enabled ? 'visible' : 'hidden'}.`)
              }
            />
          </div>
        </SettingsSection>

        {user.isAdmin && (
          <SettingsSection
            icon={ShieldCheck}
            title="Administrator Panel"
            description="Review photos, manage users and answer support messages."
          >
            <Button asChild>
              <Link to="/admin">Admin Dashboard</Link>
            </Button>
          </SettingsSection>
        )}

        <AccountActions />
      </div>
    </PageContainer>
  );
}
