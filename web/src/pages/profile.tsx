import { useEffect } from 'react';
import { Archive, ImageIcon, ShieldCheck, UserRound, Zap } from 'lucide-react';
import { PageContainer, PageHeader } from '@/components/page-header';
import { AccountStatus } from '@/components/profile/account-status';
import { AvatarUpload } from '@/components/profile/avatar-upload';
import { DataExportSection } from '@/components/profile/data-export-section';
import { DisplayNameForm } from '@/components/profile/display-name-form';
import { QuickActions } from '@/components/profile/quick-actions';
import { SettingsSection } from '@/components/settings/settings-section';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { notifyUnauthorizedAndRedirect } from '@/lib/unauthorized';
import { getDisplayName } from '@/lib/user';

function ProfileSkeleton() {
  return (
    <PageContainer className="max-w-5xl">
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading profile…</span>
        <Skeleton className="h-9 w-48" />
        <Skeleton className="mt-3 h-5 w-80 max-w-full" />
        <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="flex flex-col gap-6 lg:col-span-2">
            <Skeleton className="h-44 rounded-xl" />
            <Skeleton className="h-36 rounded-xl" />
          </div>
          <div className="flex flex-col gap-6">
            <Skeleton className="h-60 rounded-xl" />
            <Skeleton className="h-52 rounded-xl" />
          </div>
        </div>
      </div>
    </PageContainer>
  );
}

/** SPEC §2 Profile: display name and avatar edits, account status and quick actions. */
export function ProfilePage() {
  const { user, isLoading, isAuthenticated } = useAuth();
  useDocumentTitle('My Profile');

  useEffect(() => {
    if (!isLoading && !isAuthenticated) notifyUnauthorizedAndRedirect();
  }, [isLoading, isAuthenticated]);

  if (!user) return <ProfileSkeleton />;

  return (
    <PageContainer className="max-w-5xl">
      <PageHeader title="My Profile" description={`Signed in as ${getDisplayName(user)}${user.email ? ` (${user.email})` : ''}.`} />
      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-6 lg:col-span-2">
          <SettingsSection icon={ImageIcon} title="Avatar" description="Shown next to your name across Snap Cracks.">
            <AvatarUpload user={user} />
          </SettingsSection>
          <SettingsSection icon={UserRound} title="Display Name" description="The name other snappers see on your cracks.">
            <DisplayNameForm user={user} />
          </SettingsSection>
          <SettingsSection icon={Archive} title="Your Data" description="Download a copy of everything Snap Cracks holds about you.">
            <DataExportSection />
          </SettingsSection>
        </div>
        <div className="flex flex-col gap-6">
          <SettingsSection icon={ShieldCheck} title="Account Status">
            <AccountStatus user={user} />
          </SettingsSection>
          <SettingsSection icon={Zap} title="Quick Actions">
            <QuickActions user={user} />
          </SettingsSection>
        </div>
      </div>
    </PageContainer>
  );
}
