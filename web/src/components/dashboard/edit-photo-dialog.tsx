import { Suspense, useState, type ReactElement } from 'react';
import { Loader2 } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import type { UserPhoto } from '@/lib/types';
import { useEditUserPhotoMutation } from '@/queries/user-photos';
import { lazyPage } from '@/lib/lazy-page';
import { editFailureToast } from './mutation-feedback';

// The form brings react-hook-form and zod (about 40 KiB compressed): the pages that list photos (the dashboard, the
// admin review) load it when an edit first opens, not with their first screen.
const EditPhotoForm = lazyPage(() => import('./edit-photo-form').then((m) => m.EditPhotoForm));

const preloadForm = () => void EditPhotoForm.preload().catch(() => {});

function FormLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-12 text-sm text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      Loading...
    </div>
  );
}

/**
 * Edits the description, alt text and privacy bars of one of the caller's photos. `children` is the button that
 * opens it; focus returns there when the dialog closes.
 */
export function EditPhotoDialog({ photo, children }: { photo: UserPhoto; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  const mutation = useEditUserPhotoMutation(editFailureToast);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Keep the dialog up while saving so the outcome is seen where the edit was made.
        if (!mutation.isPending) setOpen(next);
      }}
    >
      {/* A pointer on the button or focus on it starts loading the form, so it is usually here by the click. */}
      <DialogTrigger asChild onPointerEnter={preloadForm} onFocus={preloadForm}>
        {children}
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Photo</DialogTitle>
          <DialogDescription>
            Update the description and cover anything private, like faces or licence plates, with privacy bars.
          </DialogDescription>
        </DialogHeader>
        {open && (
          <Suspense fallback={<FormLoading />}>
            <EditPhotoForm photo={photo} mutation={mutation} onSaved={() => setOpen(false)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}

