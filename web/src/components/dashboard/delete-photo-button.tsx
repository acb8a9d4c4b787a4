import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import type { UserPhoto } from '@/lib/types';
import { useDeleteUserPhotoMutation } from '@/queries/user-photos';
import { DELETE_FAILED } from './mutation-feedback';
import { photoLabel } from './photo-label';

/** Delete button for one of the caller's photos; asks for confirmation first (SPEC §2 Dashboard). */
export function DeletePhotoButton({ photo }: { photo: UserPhoto }) {
  const [open, setOpen] = useState(false);
  const mutation = useDeleteUserPhotoMutation(DELETE_FAILED);
  const label = photoLabel(photo);

  const confirmDelete = () => {
    mutation.mutate(photo.id, {
      onSuccess: () => toast({ title: 'Success', description: 'Your photo has been deleted.' }),
      onSettled: () => setOpen(false),
    });
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Delete ${label}`} className="text-destructive hover:text-destructive dark:text-red-400">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      }
      title="Delete this photo?"
      description={`“${label}” will be permanently deleted, along with its ratings. This cannot be undone.`}
      confirmLabel="Delete Photo"
      pendingLabel="Deleting..."
      destructive
      isPending={mutation.isPending}
      onConfirm={confirmDelete}
    />
  );
}
