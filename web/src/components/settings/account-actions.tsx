import { LogOut, ShieldAlert, Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { LOGOUT_URL } from '@/lib/api';
import { redirectTo } from '@/lib/browser';
import { toast } from '@/lib/toast';
import { SettingsSection } from './settings-section';

export function AccountActions() {
  // There is no account-deletion call yet (SPEC §7): confirming explains how to get it done instead.
  const confirmDeletion = () =>
    toast({
      title: 'Account Deletion',
      description: 'Account deletion is not implemented yet. Please contact support.',
    });

  return (
    <SettingsSection icon={ShieldAlert} title="Security & Account Actions" description="Sign out or remove your account.">
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button variant="outline" onClick={() => redirectTo(LOGOUT_URL)}>
          <LogOut aria-hidden="true" />
          Sign Out
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="destructive">
              <Trash2 aria-hidden="true" />
              Delete Account
            </Button>
          }
          title="Are you absolutely sure?"
          description="This action cannot be undone. It will permanently delete your account, your photos and your votes."
          confirmLabel="Yes, delete my account"
          destructive
          onConfirm={confirmDeletion}
        />
      </div>
    </SettingsSection>
  );
}
