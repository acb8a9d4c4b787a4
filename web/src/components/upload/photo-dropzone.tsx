import { useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { ImageUp } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { FileName } from './file-name';
import {
  ACCEPTED_PHOTO_TYPES,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_FILES,
  MIN_UPLOAD_BYTES,
  UPLOAD_FILE_RULE,
  fileProblemMessage,
} from './upload-rules';

/** One problem with a dropped or chosen file: which file (none for "Too many files") and what is wrong. */
export interface FileProblem {
  fileName?: string;
  message: string;
}

/** What was wrong with the refused files (SPEC §5), one entry per distinct problem. */
export function rejectionMessages(rejections: readonly FileRejection[]): FileProblem[] {
  const problems = new Map<string, FileProblem>();
  for (const rejection of rejections) {
    for (const error of rejection.errors) {
      const message = fileProblemMessage(String(error.code), error.message);
      // Dropping several files refuses each one as "too many": that is said once, for all of them.
      const problem = error.code === 'too-many-files' ? { message } : { fileName: rejection.file.name, message };
      problems.set(`${problem.fileName ?? ''}\n${message}`, problem);
    }
  }
  return [...problems.values()];
}

/**
 * The drop zone state for one photo. The hidden file input it returns must stay rendered while a
 * photo is chosen, so "Change photo" (open) keeps working.
 */
export function usePhotoDropzone({ onFile, disabled }: { onFile: (file: File) => void; disabled?: boolean }) {
  const [errors, setErrors] = useState<FileProblem[]>([]);
  const dropzone = useDropzone({
    accept: ACCEPTED_PHOTO_TYPES,
    maxFiles: MAX_UPLOAD_FILES,
    multiple: false,
    maxSize: MAX_UPLOAD_BYTES,
    minSize: MIN_UPLOAD_BYTES,
    disabled,
    // The visible "Choose Photo" button is the keyboard path; the zone itself is not a focus stop.
    noKeyboard: true,
    onDrop: (accepted, rejections) => {
      setErrors(rejectionMessages(rejections));
      const file = accepted[0];
      if (file && rejections.length === 0) onFile(file);
    },
  });
  return { ...dropzone, errors, clearErrors: () => setErrors([]) };
}

export type PhotoDropzoneState = ReturnType<typeof usePhotoDropzone>;

export function PhotoDropzone({ dropzone }: { dropzone: PhotoDropzoneState }) {
  const { getRootProps, isDragActive, isDragReject } = dropzone;
  return (
    <div
      {...getRootProps({
        role: 'group',
        'aria-label': 'Photo drop zone',
        className: cn(
          'flex min-h-72 cursor-pointer flex-col items-center justify-center gap-4 rounded-xl border-2 border-dashed border-input bg-muted/40 px-6 py-10 text-center transition-colors hover:border-primary/60 hover:bg-accent/40',
          isDragActive && 'border-primary bg-primary/5',
          isDragReject && 'border-destructive bg-destructive/5',
        ),
      })}
    >
      <div className="flex size-16 items-center justify-center rounded-full bg-primary/10 text-primary">
        <ImageUp className="size-8" aria-hidden="true" />
      </div>
      <div className="flex flex-col gap-1">
        <p className="text-lg font-semibold">{isDragActive ? 'Drop your photo here' : 'Drag and drop a photo here'}</p>
        <p className="text-sm text-muted-foreground">or take one with your camera or pick it from your gallery</p>
      </div>
      {/* No onClick: the click bubbles to the zone, which opens the file picker. */}
      <Button size="lg">Choose Photo</Button>
      <p className="text-xs text-muted-foreground">{UPLOAD_FILE_RULE}. HEIC and WebP photos work too.</p>
    </div>
  );
}

export function DropzoneErrors({ errors }: { errors: readonly FileProblem[] }) {
  if (errors.length === 0) return null;
  return (
    <div role="alert" className="min-w-0 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm">
      <p className="font-medium text-destructive dark:text-red-400">{UPLOAD_FILE_RULE}</p>
      <ul className="mt-1 list-disc pl-5 text-foreground">
        {errors.map(({ fileName, message }) => (
          <li key={`${fileName ?? ''}\n${message}`}>
            {fileName !== undefined && (
              <>
                <FileName name={fileName} className="font-medium" />
                {': '}
              </>
            )}
            {message}
          </li>
        ))}
      </ul>
    </div>
  );
}
