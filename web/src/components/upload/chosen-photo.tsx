import { FileImage, RefreshCw, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FileName } from './file-name';
import { formatFileSize } from './upload-rules';

/**
 * The chosen file: its whole name (wrapped, never wider than the screen) and size, with Change photo and Remove
 * photo. On a phone the two buttons move under the name rather than squeeze it, each a 44 px target.
 */
export function ChosenPhoto({
  file,
  editable,
  disabled,
  onChange,
  onRemove,
}: {
  file: File;
  /** False once the photo is uploaded: only its bars can still be saved. */
  editable: boolean;
  disabled: boolean;
  onChange: () => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-muted/40 px-3 py-2">
      <div className="flex min-w-0 flex-1 basis-48 items-center gap-3">
        <FileImage className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="min-w-0">
          <p className="text-sm font-medium" data-testid="chosen-file-name">
            <FileName name={file.name} />
          </p>
          <p className="text-xs text-muted-foreground">{formatFileSize(file.size)}</p>
        </div>
      </div>
      {editable && (
        <div className="ml-auto flex shrink-0 gap-1">
          <Button variant="ghost" size="sm" disabled={disabled} onClick={onChange}>
            <RefreshCw aria-hidden="true" />
            Change photo
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="max-sm:w-11"
            disabled={disabled}
            onClick={onRemove}
            aria-label="Remove photo"
            title="Remove photo"
          >
            <X aria-hidden="true" />
          </Button>
        </div>
      )}
    </div>
  );
}
