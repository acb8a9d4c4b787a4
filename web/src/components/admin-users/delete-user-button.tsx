import { REFUSALS } from '@snapcracks/http-contract';

import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import type { AdminUser } from '@/lib/types';
import { useDeleteAdminUserMutation } from '@/queries/admin-users';
import { deleteFailureToast, toastSuccess } from './mutation-feedback';
import { userLabel } from './user-labels';

/** SPEC §5: the reason an admin's delete button is disabled. */
export const ADMIN_NOT_DELETABLE = REFUSALS.adminUndeletable;

/**
 * Deletes a member's account after confirmation, with their photos and votes. Disabled for admins (SPEC §2); the
 * reason is given to pointer users as a tooltip and to screen readers as the button's description.
 */
export function DeleteUserButton({ user, onDeleted, className }: { user: AdminUser; onDeleted?: () => void; className?: string }) {
  const [open, setOpen] = useState(false);
  const name = userLabel(user);
  const mutation = useDeleteAdminUserMutation({
    onSuccess: () => {
      setOpen(false);
      toastSuccess(`${name}'s account has been deleted.`);
      onDeleted?.();
    },
    onError: () => setOpen(false),
    errorToast: deleteFailureToast,
  });
  const reasonId = `user-${user.id}-not-deletable`;

  if (user.isAdmin) {
    return (
      <span title={ADMIN_NOT_DELETABLE} className={cn('inline-flex', className)}>
        <Button variant="outline" size="sm" disabled aria-label={`Delete ${name}`} aria-describedby={reasonId} className="w-full">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
        <span id={reasonId} className="sr-only">
          {ADMIN_NOT_DELETABLE}
        </span>
      </span>
    );
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Delete ${name}`} className={cn('text-destructive hover:text-destructive dark:text-red-400', className)}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      }
      title="Delete this user account?"
      description={`${user.email ? `${name} (${user.email})` : name} will be signed out and their account permanently deleted, together with their photos and votes. This cannot be undone.`}
      confirmLabel="Delete User"
      pendingLabel="Deleting..."
      destructive
      isPending={mutation.isPending}
      onConfirm={() => mutation.mutate(user.id)}
    />
  );
}
