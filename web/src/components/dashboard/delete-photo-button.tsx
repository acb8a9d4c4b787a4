import { useState } from 'react';
import { Loader2, Trash2 } from 'lucide-react';
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
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!mutation.isPending) setOpen(next);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Delete ${label}`} className="text-destructive hover:text-destructive dark:text-red-400">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this photo?</AlertDialogTitle>
          <AlertDialogDescription>
            “{label}” will be permanently deleted, along with its ratings. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={mutation.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={mutation.isPending}
            onClick={(event) => {
              // Stay open until the server answers, so a failure is not mistaken for success.
              event.preventDefault();
              confirmDelete();
            }}
          >
            {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {mutation.isPending ? 'Deleting...' : 'Delete Photo'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
