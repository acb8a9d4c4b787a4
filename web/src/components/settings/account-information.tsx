import type { ReactNode } from 'react';
import { UserRound } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { User } from '@/lib/types';
import { getDisplayName } from '@/lib/user';
import { SettingsSection } from './settings-section';

/** "July 27, 2025" for a valid timestamp, otherwise null. */
export function formatMemberSince(createdAt: string | null): string | null {
  if (!createdAt) return null;
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-all">{children}</dd>
    </div>
  );
}

export function AccountInformation({ user }: { user: User }) {
  return (
    <SettingsSection icon={UserRound} title="Account Information" description="Your basic account details.">
      <dl className="divide-y">
        <InfoRow label="Display Name">{getDisplayName(user)}</InfoRow>
        <InfoRow label="Email">{user.email || 'Not provided'}</InfoRow>
        <InfoRow label="Account Type">
          <Badge variant={user.isAdmin ? 'default' : 'secondary'}>{user.isAdmin ? 'Administrator' : 'User'}</Badge>
        </InfoRow>
        <InfoRow label="Member Since">{formatMemberSince(user.createdAt) ?? 'Unknown'}</InfoRow>
      </dl>
    </SettingsSection>
  );
}
