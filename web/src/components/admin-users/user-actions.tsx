import { Pencil } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { AdminUser } from '@/lib/types';
import { DeleteUserButton } from './delete-user-button';
import { EditUserDialog } from './edit-user-dialog';
import { userLabel } from './user-labels';

export interface UserRowProps {
  user: AdminUser;
  currentUserId: string | undefined;
  /** Called once a user is deleted, so the list can put focus somewhere sensible. */
  onDeleted: (id: string) => void;
}

/** Edit and Delete for one user. */
export function UserActions({ user, currentUserId, onDeleted, stretch = false }: UserRowProps & { stretch?: boolean }) {
  const name = userLabel(user);
  return (
    <div className={stretch ? 'grid grid-cols-2 gap-2' : 'flex justify-end gap-2'}>
      <EditUserDialog user={user} isSelf={user.id === currentUserId} currentUserId={currentUserId}>
        <Button variant="outline" size="sm" aria-label={`Edit ${name}`} className={stretch ? 'w-full' : undefined}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
      </EditUserDialog>
      <DeleteUserButton user={user} onDeleted={() => onDeleted(user.id)} className={stretch ? 'w-full' : undefined} />
    </div>
  );
}
