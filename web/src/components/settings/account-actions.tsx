import { LogOut, ShieldAlert, Trash2 } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
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
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button variant="destructive">
              <Trash2 aria-hidden="true" />
              Delete Account
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Are you absolutely sure?</AlertDialogTitle>
              <AlertDialogDescription>
                This action cannot be undone. It will permanently delete your account, your photos and your votes.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant="destructive" onClick={confirmDeletion}>
                Yes, delete my account
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </SettingsSection>
  );
}
