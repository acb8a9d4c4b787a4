import { AVATAR } from '@snapcracks/http-contract';
import { useEffect, useRef, useState } from 'react';
import { Camera, Loader2 } from 'lucide-react';
import { UserAvatar } from '@/components/user-avatar';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import type { User } from '@/lib/types';
import { useUploadAvatarMutation } from '@/queries/profile';

/** SPEC §5: the avatar picker accepts jpeg, jpg and png (some browsers say image/jpg). The server also refuses more than 5 MB. */
export const AVATAR_ACCEPT = 'image/jpeg,image/jpg,image/png,.jpg,.jpeg,.png';
const ACCEPTED_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png']);
export const MAX_AVATAR_BYTES = AVATAR.maxBytes;

export function AvatarUpload({ user }: { user: User }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState(0);
  const upload = useUploadAvatarMutation({
    onProgress: (progress) => setPercent(progress.percent),
    errorToast: { title: 'Error', description: 'Failed to upload avatar. Please try again.' },
  });

  // The local preview's object URL is released when replaced or when the page goes.
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!ACCEPTED_TYPES.has(file.type) || file.size > MAX_AVATAR_BYTES) {
      toast({ variant: 'destructive', title: 'Error', description: 'Please choose a JPG, JPEG or PNG image up to 5MB.' });
      return;
    }
    setPercent(0);
    setPreview(URL.createObjectURL(file));
    upload.mutate(file, {
      onSuccess: () => {
        setPreview(null);
        toast({ title: 'Success', description: 'Your avatar has been updated.' });
      },
      onError: () => setPreview(null),
    });
  };

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <div className="relative">
        {preview ? (
          <img src={preview} alt="New avatar preview" className="size-24 rounded-full object-cover ring-2 ring-primary" />
        ) : (
          <UserAvatar user={user} className="size-24 text-3xl" />
        )}
        {upload.isPending && (
          <div className="absolute inset-0 flex items-center justify-center rounded-full bg-background/70" aria-hidden="true">
            <Loader2 className="size-6 animate-spin text-primary" />
          </div>
        )}
      </div>
      <div className="flex flex-col items-center gap-2 sm:items-start">
        <input
          ref={input}
          type="file"
          accept={AVATAR_ACCEPT}
          className="sr-only"
          aria-label="Choose avatar image"
          onChange={(event) => choose(event.target.files?.[0])}
          disabled={upload.isPending}
        />
        <Button type="button" variant="outline" onClick={() => input.current?.click()} disabled={upload.isPending}>
          <Camera className="size-4" aria-hidden="true" />
          {upload.isPending ? 'Uploading...' : 'Change Avatar'}
        </Button>
        {upload.isPending ? (
          <div className="w-48" role="progressbar" aria-label="Avatar upload" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className="h-1.5 overflow-hidden rounded-full bg-muted">
              <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
            </div>
          </div>
        ) : (
          <p className="text-xs text-muted-foreground">JPG, JPEG or PNG, up to 5MB. Cropped to a square.</p>
        )}
      </div>
    </div>
  );
}
