import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router-dom';
import { AlertTriangle, FileImage, ImageUp, RefreshCw, X } from 'lucide-react';
import { FormField } from '@/components/contact/form-field';
import { PageContainer, PageHeader } from '@/components/page-header';
import { suggestFaceBars } from '@/components/privacy-bars/face-suggestions';
import { PrivacyBarEditor } from '@/components/privacy-bars/privacy-bar-editor';
import { DropzoneErrors, PhotoDropzone, usePhotoDropzone } from '@/components/upload/photo-dropzone';
import { UploadProgressBar } from '@/components/upload/upload-progress';
import {
  PHOTO_DESCRIPTION_MAX_LENGTH,
  formatFileSize,
  isHeicFile,
  uploadFormSchema,
  type UploadFormInput,
  type UploadFormValues,
} from '@/components/upload/upload-rules';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { PrivacyBar, UploadedPhoto } from '@/lib/types';
import { handleUnauthorizedError } from '@/lib/unauthorized';
import { useSavePrivacyBarsMutation, useUploadPhotoMutation } from '@/queries/upload';

type Phase = 'idle' | 'uploading' | 'saving-bars';

/** A blob URL for previewing `file`, revoked when the file changes or the page goes away. */
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function InlineLegalLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      target="_blank"
      rel="noopener noreferrer"
      className="rounded-sm font-medium text-primary underline underline-offset-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </Link>
  );
}

/**
 * /upload (SPEC "Upload", §5, §8): pick one photo, preview it, optionally cover private details with
 * privacy bars, add a description, agree to the terms, then upload (with progress) and save the bars.
 */
export function UploadPage() {
  useDocumentTitle('Snap a Crack');
  const navigate = useNavigate();
  const uploadPhoto = useUploadPhotoMutation();
  const savePrivacyBars = useSavePrivacyBarsMutation();

  const [file, setFile] = useState<File | null>(null);
  const [bars, setBars] = useState<PrivacyBar[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState(0);
  // Set once the photo is stored: if only its bars failed to save, a retry sends just the bars.
  const [uploaded, setUploaded] = useState<UploadedPhoto | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const isBusy = phase !== 'idle';
  const isHeic = file !== null && isHeicFile(file);
  const objectUrl = useObjectUrl(file && !isHeic ? file : null);

  const dropzone = usePhotoDropzone({
    disabled: isBusy || uploaded !== null,
    onFile: (next) => {
      setFile(next);
      setBars([]);
    },
  });

  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UploadFormInput, unknown, UploadFormValues>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: { description: '', agreeToTerms: false },
  });
  const descriptionLength = useWatch({ control, name: 'description' })?.length ?? 0;

  // Leaving the page cancels an upload still in flight.
  useEffect(() => () => abortRef.current?.abort(), []);

  const finish = () => {
    toast({ title: 'Success', description: 'Your photo was uploaded and is awaiting review.' });
    navigate('/dashboard');
  };

  const saveBars = async (photo: UploadedPhoto): Promise<boolean> => {
    if (bars.length === 0) return true;
    setPhase('saving-bars');
    try {
      await savePrivacyBars.mutateAsync({ photoId: photo.id, bars });
      return true;
    } catch (error) {
      setPhase('idle');
      if (handleUnauthorizedError(error)) return false;
      toast({
        variant: 'destructive',
        title: 'Failed to Save Privacy Bars',
        description: getServerMessage(error, 'Please try again.'),
      });
      return false;
    }
  };

  const submit = async ({ description }: { description: string }) => {
    if (!file || isBusy) return;
    let photo = uploaded;
    if (!photo) {
      const controller = new AbortController();
      abortRef.current = controller;
      setProgress(0);
      setPhase('uploading');
      try {
        photo = await uploadPhoto.mutateAsync({
          file,
          description,
          signal: controller.signal,
          onProgress: ({ percent }) => setProgress(percent),
        });
      } catch (error) {
        setPhase('idle');
        if (isAbortError(error) || handleUnauthorizedError(error)) return;
        toast({
          variant: 'destructive',
          title: 'Upload Failed',
          description: getServerMessage(error, 'Failed to upload photo. Please try again.'),
        });
        return;
      } finally {
        abortRef.current = null;
      }
      setUploaded(photo);
    }
    if (!(await saveBars(photo))) return;
    setPhase('idle');
    finish();
  };

  const removeFile = () => {
    setFile(null);
    setBars([]);
    dropzone.clearErrors();
  };

  const submitLabel =
    phase === 'uploading'
      ? `Uploading... ${progress}%`
      : phase === 'saving-bars'
        ? 'Saving privacy bars...'
        : uploaded
          ? 'Save Privacy Bars'
          : 'Upload Photo';

  return (
    <PageContainer className="max-w-6xl">
      <PageHeader
        title="Snap a Crack"
        description="Share a crack you found. Cover faces, number plates or anything private before you upload."
      />
      <form
        noValidate
        aria-label="Upload a photo"
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start"
      >
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ImageUp className="size-5 text-primary" aria-hidden="true" />
              Your photo
            </CardTitle>
            <CardDescription>
              {!file
                ? 'One photo, up to 10 MB.'
                : isHeic
                  ? 'Check the file, then fill in the details.'
                  : 'Drag on the photo to hide private details with black bars.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {/* Stays mounted while a photo is chosen so "Change photo" can reopen the picker. */}
            <input {...dropzone.getInputProps({ 'aria-label': 'Photo file' })} />
            {file ? (
              <>
                <div className="flex items-center gap-3 rounded-lg border bg-muted/40 px-3 py-2">
                  <FileImage className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium" title={file.name}>
                      {file.name}
                    </p>
                    <p className="text-xs text-muted-foreground">{formatFileSize(file.size)}</p>
                  </div>
                  {!uploaded && (
                    <div className="flex shrink-0 gap-1">
                      <Button variant="ghost" size="sm" disabled={isBusy} onClick={dropzone.open}>
                        <RefreshCw aria-hidden="true" />
                        <span className="max-sm:sr-only">Change photo</span>
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={isBusy}
                        onClick={removeFile}
                        aria-label="Remove photo"
                      >
                        <X aria-hidden="true" />
                      </Button>
                    </div>
                  )}
                </div>
                {isHeic || objectUrl ? (
                  <PrivacyBarEditor
                    imageUrl={isHeic ? null : objectUrl}
                    alt={isHeic ? file.name : `Preview of ${file.name}`}
                    bars={bars}
                    onChange={setBars}
                    disabled={isBusy}
                    suggestFaces={isHeic ? undefined : () => suggestFaceBars(file)}
                  />
                ) : (
                  // The blob URL is made right after the first render; hold the space until then.
                  <div aria-hidden="true" className="aspect-[4/3] w-full animate-pulse rounded-lg bg-muted" />
                )}
                {isHeic && (
                  <p className="text-sm text-muted-foreground">
                    HEIC photos can't be previewed in most browsers, so privacy bars can't be drawn here. Once the
                    photo is uploaded you can add them from My Dashboard.
                  </p>
                )}
              </>
            ) : (
              <PhotoDropzone dropzone={dropzone} />
            )}
            <DropzoneErrors errors={dropzone.errors} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
            <CardDescription>New photos are reviewed by our moderators before they appear in the gallery.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <FormField
              id="upload-description"
              label="Description (optional)"
              error={errors.description?.message}
              hint={`${descriptionLength}/${PHOTO_DESCRIPTION_MAX_LENGTH}`}
            >
              <Textarea
                rows={4}
                placeholder="Where did you spot it? What makes it special?"
                disabled={isBusy || uploaded !== null}
                {...register('description')}
              />
            </FormField>

            <div className="flex flex-col gap-2">
              <div className="flex items-start gap-3">
                <Controller
                  control={control}
                  name="agreeToTerms"
                  render={({ field }) => (
                    <Checkbox
                      ref={field.ref}
                      id="upload-terms"
                      name={field.name}
                      className="mt-0.5"
                      checked={field.value}
                      disabled={isBusy || uploaded !== null}
                      onCheckedChange={(checked) => field.onChange(checked === true)}
                      onBlur={field.onBlur}
                      aria-invalid={errors.agreeToTerms ? true : undefined}
                      aria-describedby={errors.agreeToTerms ? 'upload-terms-error' : undefined}
                    />
                  )}
                />
                <Label htmlFor="upload-terms" className="leading-relaxed font-normal">
                  I own this photo or have the right to share it, and I agree to the{' '}
                  <InlineLegalLink to="/legal#terms">Terms of Service</InlineLegalLink> and{' '}
                  <InlineLegalLink to="/legal#community">Community Guidelines</InlineLegalLink>.
                </Label>
              </div>
              {errors.agreeToTerms && (
                <p id="upload-terms-error" className="pl-8 text-sm font-medium text-destructive">
                  {errors.agreeToTerms.message}
                </p>
              )}
            </div>

            {uploaded && phase === 'idle' && (
              <div
                role="alert"
                className="flex gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm"
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
                <p>
                  Your photo was uploaded, but its privacy bars were not saved yet. Save them again, or{' '}
                  <Link to="/dashboard" className="font-medium text-primary underline underline-offset-4">
                    go to My Dashboard
                  </Link>{' '}
                  and edit the photo there.
                </p>
              </div>
            )}

            {phase === 'uploading' && <UploadProgressBar percent={progress} />}

            <div className="flex flex-col gap-2 sm:flex-row">
              <Button type="submit" size="lg" className="w-full sm:flex-1" disabled={!file || isBusy}>
                <ImageUp aria-hidden="true" />
                {submitLabel}
              </Button>
              {phase === 'uploading' && (
                <Button variant="outline" size="lg" onClick={() => abortRef.current?.abort()}>
                  Cancel
                </Button>
              )}
            </div>
            {!file && <p className="text-center text-xs text-muted-foreground">Choose a photo to upload.</p>}
          </CardContent>
        </Card>
      </form>
    </PageContainer>
  );
}
