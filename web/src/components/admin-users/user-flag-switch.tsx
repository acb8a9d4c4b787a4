import { REFUSALS } from '@snapcracks/http-contract';

import { useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/lib/toast';
import type { AdminUser } from '@/lib/types';
import { useUpdateAdminUserMutation } from '@/queries/admin-users';
import { toastSuccess, updateFailureToast } from './mutation-feedback';
import { userLabel } from './user-labels';

export type UserFlag = 'isEnabled' | 'isAdmin';

interface Confirmation {
  title: (name: string) => string;
  description: string;
  action: string;
  destructive: boolean;
}

interface Wording {
  label: (name: string) => string;
  on: (name: string) => string;
  off: (name: string) => string;
  /** Asked before turning the flag on or off; a change without one happens at once, with Undo on its toast. */
  confirmOn: Confirmation | null;
  confirmOff: Confirmation | null;
}

/**
 * Disabling an account signs its owner out at once and keeps them out, and an administrator can review and delete
 * every photo and change every account (demoting one cuts them off mid-work): those three are confirmed first.
 * Enabling an account only gives back what they had; it happens at once, with Undo on its toast.
 */
const WORDING: Record<UserFlag, Wording> = {
  isEnabled: {
    label: (name) => `Account enabled: ${name}`,
    on: (name) => `${name}'s account has been enabled.`,
    off: (name) => `${name}'s account has been disabled.`,
    confirmOn: null,
    confirmOff: {
      title: (name) => `Disable ${name}?`,
      description: 'They will be signed out and cannot sign in until enabled again. Their photos and votes stay.',
      action: 'Disable Account',
      destructive: true,
    },
  },
  isAdmin: {
    label: (name) => `Administrator: ${name}`,
    on: (name) => `${name} is now an administrator.`,
    off: (name) => `${name} is no longer an administrator.`,
    confirmOn: {
      title: (name) => `Make ${name} an administrator?`,
      description:
        'They will be able to approve, reject and delete any photo, enable, disable, promote and delete accounts, and read every support message.',
      action: 'Make Administrator',
      destructive: false,
    },
    confirmOff: {
      title: (name) => `Remove ${name}'s administrator rights?`,
      description: 'They will lose the admin panel at once, including any review they are in the middle of. Their account stays.',
      action: 'Remove Admin Rights',
      destructive: true,
    },
  },
};

/** Why an admin's own switches are locked; the server refuses those changes too. */
export const OWN_ACCOUNT_LOCKED = `${REFUSALS.ownAdminRights}.`;

/**
 * Turns one flag of a user on or off with a single PATCH, after a confirmation where the change is consequential
 * (see WORDING). The switch shows the new state while the change is on its way and stays put until the server
 * answers. An admin's own switches are locked (they cannot lock themselves out).
 */
export function UserFlagSwitch({ user, flag, isSelf, currentUserId }: { user: AdminUser; flag: UserFlag; isSelf: boolean; currentUserId: string | undefined }) {
  const name = userLabel(user);
  const wording = WORDING[flag];
  const [asking, setAsking] = useState<boolean | null>(null);
  const switchRef = useRef<HTMLButtonElement>(null);
  const mutation = useUpdateAdminUserMutation({
    currentUserId,
    onSuccess: (updated, { undo }) => {
      setAsking(null);
      const value = updated[flag];
      const message = value ? wording.on(name) : wording.off(name);
      // A change made without a confirmation can be taken back from its toast, by the same call the other way.
      const unconfirmed = (value ? wording.confirmOn : wording.confirmOff) === null && !undo;
      if (!unconfirmed) return toastSuccess(message);
      toast({
        title: 'Success',
        description: message,
        action: {
          label: 'Undo',
          altText: `Use the ${flag === 'isEnabled' ? 'Enabled' : 'Admin'} switch of ${name} to undo`,
          onClick: () => mutation.mutate({ id: user.id, edit: { [flag]: !value }, undo: true }),
        },
      });
    },
    onError: () => setAsking(null),
    errorToast: updateFailureToast,
  });
  const pendingValue = mutation.isPending ? mutation.variables?.edit[flag] : undefined;
  const checked = pendingValue ?? user[flag];
  const hintId = `user-${user.id}-${flag}-locked`;
  const confirmation = asking === null ? null : asking ? wording.confirmOn : wording.confirmOff;

  const change = (next: boolean) => {
    if ((next ? wording.confirmOn : wording.confirmOff) !== null) setAsking(next);
    else mutation.mutate({ id: user.id, edit: { [flag]: next } });
  };

  return (
    <>
      <Switch
        ref={switchRef}
        checked={checked}
        disabled={isSelf || mutation.isPending}
        aria-label={wording.label(name)}
        aria-describedby={isSelf ? hintId : undefined}
        title={isSelf ? OWN_ACCOUNT_LOCKED : undefined}
        onCheckedChange={change}
      />
      {isSelf && (
        <span id={hintId} className="sr-only">
          {OWN_ACCOUNT_LOCKED}
        </span>
      )}
      <ConfirmDialog
        open={confirmation !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        // Opened by the switch, not by a trigger: focus goes back to the switch.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          switchRef.current?.focus();
        }}
        title={confirmation?.title(name)}
        description={confirmation?.description}
        confirmLabel={confirmation?.action}
        destructive={confirmation?.destructive}
        isPending={mutation.isPending}
        onConfirm={() => {
          if (asking !== null) mutation.mutate({ id: user.id, edit: { [flag]: asking } });
        }}
      />
    </>
  );
}
