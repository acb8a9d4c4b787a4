import { Switch } from '@/components/ui/switch';
import { useUpdateAdminUserMutation, type AdminUser } from '@/queries/admin-users';
import { toastSuccess, toastUpdateFailure } from './mutation-feedback';
import { userLabel } from './user-labels';

export type UserFlag = 'isEnabled' | 'isAdmin';

const WORDING: Record<UserFlag, { label: (name: string) => string; on: (name: string) => string; off: (name: string) => string }> = {
  isEnabled: {
    label: (name) => `Account enabled: ${name}`,
    on: (name) => `${name}'s account has been enabled.`,
    off: (name) => `${name}'s account has been disabled.`,
  },
  isAdmin: {
    label: (name) => `Administrator: ${name}`,
    on: (name) => `${name} is now an administrator.`,
    off: (name) => `${name} is no longer an administrator.`,
  },
};

/** Why an admin's own switches are locked; the server refuses those changes too. */
export const OWN_ACCOUNT_LOCKED = 'You cannot disable or remove admin rights from your own account.';

/**
 * Turns one flag of a user on or off with a single PATCH. The switch shows the new state while the change is on
 * its way, and stays put until the server answers. An admin's own switches are locked (they cannot lock themselves out).
 */
export function UserFlagSwitch({ user, flag, isSelf, currentUserId }: { user: AdminUser; flag: UserFlag; isSelf: boolean; currentUserId: string | undefined }) {
  const name = userLabel(user);
  const wording = WORDING[flag];
  const mutation = useUpdateAdminUserMutation({
    currentUserId,
    onSuccess: (updated) => toastSuccess(updated[flag] ? wording.on(name) : wording.off(name)),
    onError: toastUpdateFailure,
  });
  const pendingValue = mutation.isPending ? mutation.variables?.edit[flag] : undefined;
  const checked = pendingValue ?? user[flag];
  const hintId = `user-${user.id}-${flag}-locked`;

  return (
    <>
      <Switch
        checked={checked}
        disabled={isSelf || mutation.isPending}
        aria-label={wording.label(name)}
        aria-describedby={isSelf ? hintId : undefined}
        title={isSelf ? OWN_ACCOUNT_LOCKED : undefined}
        onCheckedChange={(next) => mutation.mutate({ id: user.id, edit: { [flag]: next } })}
      />
      {isSelf && (
        <span id={hintId} className="sr-only">
          {OWN_ACCOUNT_LOCKED}
        </span>
      )}
    </>
  );
}
