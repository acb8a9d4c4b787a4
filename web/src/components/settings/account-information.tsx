import type { ReactNode } from 'react';
import { UserRound } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import type { User } from '@/lib/types';
import { getDisplayName } from '@/lib/user';
import { SettingsSection } from './settings-section';

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
        <InfoRow label="Member Since">{formatDate(user.createdAt) ?? 'Unknown'}</InfoRow>
      </dl>
    </SettingsSection>
  );
}
