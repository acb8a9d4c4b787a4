import { ImageOff, Loader2 } from 'lucide-react';
import type { HeicPreviewFailure, HeicPreviewStage } from '@/workers/heic-preview-protocol';
import { FileName } from './file-name';

const STAGE_TEXT: Record<HeicPreviewStage, string> = {
  'loading-decoder': 'Loading the HEIC decoder...',
  decoding: 'Decoding the photo...',
  scaling: 'Almost ready...',
};

/** Shown in the preview's place while a HEIC photo is decoded (a few seconds for a phone's photo). */
export function PreviewPreparing({ stage }: { stage: HeicPreviewStage | null }) {
  return (
    <div
      role="status"
      className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 rounded-lg bg-muted/60 p-6 text-center"
    >
      <Loader2 className="size-8 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
      <p className="text-sm font-medium">Preparing preview...</p>
      <p className="text-xs text-muted-foreground">{stage ? STAGE_TEXT[stage] : 'HEIC photos take a moment.'}</p>
    </div>
  );
}

const FAILURE_TEXT: Record<HeicPreviewFailure, string> = {
  unreadable: "This HEIC photo couldn't be read here",
  'too-large': 'This photo is too large to preview on this device',
  unavailable: "This browser couldn't prepare a preview",
};

/** A HEIC photo that could not be previewed: it still uploads, and its bars can be drawn once it is uploaded. */
export function PreviewFailed({ fileName, reason }: { fileName: string; reason: HeicPreviewFailure }) {
  return (
    <div
      role="alert"
      className="flex w-full flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-muted/60 px-4 py-8 text-center"
    >
      <ImageOff className="size-10 text-muted-foreground" aria-hidden="true" />
      <p className="text-sm font-medium">Preview not available</p>
      <p className="max-w-prose text-sm text-muted-foreground">
        {FAILURE_TEXT[reason]}, so privacy bars can't be drawn before the upload. You can still upload{' '}
        <FileName name={fileName} className="font-medium text-foreground" />, then add bars from My Dashboard.
      </p>
    </div>
  );
}
