import { Controller } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { AlertTriangle, ImageUp } from 'lucide-react';
import { FormField } from '@/components/contact/form-field';
import { PageContainer, PageHeader } from '@/components/page-header';
import { AltTextField } from '@/components/photo/alt-text-field';
import { PrivacyBarEditor } from '@/components/privacy-bars/privacy-bar-editor';
import { ChosenPhoto } from '@/components/upload/chosen-photo';
import { DropzoneErrors, PhotoDropzone } from '@/components/upload/photo-dropzone';
import { PreviewFailed, PreviewPreparing } from '@/components/upload/preview-status';
import { UploadAllowanceNote } from '@/components/upload/upload-allowance-note';
import { UploadProgressBar } from '@/components/upload/upload-progress';
import { PHOTO_DESCRIPTION_MAX_LENGTH, isHeicFile } from '@/components/upload/upload-rules';
import { useUploadFlow } from '@/components/upload/use-upload-flow';
import { UnfinishedUploadsNote } from '@/components/upload/unfinished-uploads-note';
import type { ResumableUploadStatus } from '@/lib/resumable-upload';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useDocumentTitle } from '@/hooks/use-document-title';

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
 * privacy bars, add a description and alt text, agree to the terms, then upload (with progress) and save the bars.
 * A HEIC/HEIF photo is previewed from a JPEG decoded in a worker; the original file is what is uploaded.
 */
export function UploadPage() {
  useDocumentTitle('Snap a Crack');
  const {
    file,
    preview,
    dropzone,
    bars,
    setBars,
    suggestFaces,
    removeFile,
    form: { control, register, errors, descriptionLength, altTextLength },
    onSubmit,
    phase,
    isBusy,
    progress,
    transfer,
    uploaded,
    cancelUpload,
  } = useUploadFlow();

  const barsNoun = bars.length === 1 ? 'privacy bar' : 'privacy bars';
  const submitLabel =
    phase === 'uploading'
      ? `Uploading... ${progress}%`
      : phase === 'saving-bars'
        ? `Saving ${barsNoun}...`
        : uploaded
          ? bars.length === 1
            ? 'Save Privacy Bar'
            : 'Save Privacy Bars'
          : 'Upload Photo';

  const photoHint = !file
    ? 'One photo, up to 10 MB.'
    : preview.status === 'ready'
      ? 'Drag on the photo to hide private details with black bars.'
      : preview.status === 'failed'
        ? 'Check the file, then fill in the details.'
        : 'Getting the photo ready for privacy bars.';

  return (
    <PageContainer className="max-w-6xl">
      <PageHeader
        title="Snap a Crack"
        description="Share a crack you found. Cover faces, number plates or anything private before you upload."
      />
      <UploadAllowanceNote className="mt-6" />
      {!isBusy && !uploaded && <UnfinishedUploadsNote className="mt-3" />}
      <form
        noValidate
        aria-label="Upload a photo"
        onSubmit={onSubmit}
        // One column that may shrink below its content on phones (grid-cols-1 is minmax(0, 1fr)), so nothing in it,
        // a long file name say, widens the page past the screen.
        className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start"
      >
        <Card className="min-w-0">
          <CardHeader className="p-4 sm:p-6">
            <CardTitle className="flex items-center gap-2">
              <ImageUp className="size-5 text-primary" aria-hidden="true" />
              Your photo
            </CardTitle>
            <CardDescription>{photoHint}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 p-4 pt-0 sm:p-6 sm:pt-0">
            {/* Stays mounted while a photo is chosen so "Change photo" can reopen the picker. */}
            <input {...dropzone.getInputProps({ 'aria-label': 'Photo file' })} />
            {file ? (
              <>
                <ChosenPhoto
                  file={file}
                  editable={!uploaded}
                  disabled={isBusy}
                  onChange={dropzone.open}
                  onRemove={removeFile}
                />
                {preview.status === 'ready' ? (
                  <PrivacyBarEditor
                    imageUrl={preview.url}
                    alt={`Preview of ${file.name}`}
                    bars={bars}
                    onChange={setBars}
                    disabled={isBusy}
                    suggestFaces={suggestFaces}
                  />
                ) : preview.status === 'failed' ? (
                  <PreviewFailed fileName={file.name} reason={preview.reason} />
                ) : isHeicFile(file) ? (
                  <PreviewPreparing stage={preview.status === 'preparing' ? preview.stage : null} />
                ) : (
                  // The blob URL is made right after the first render; hold the space until then.
                  <div aria-hidden="true" className="aspect-[4/3] w-full animate-pulse rounded-lg bg-muted" />
                )}
              </>
            ) : (
              <PhotoDropzone dropzone={dropzone} />
            )}
            <DropzoneErrors errors={dropzone.errors} />
          </CardContent>
        </Card>

        <Card className="min-w-0">
          <CardHeader className="p-4 sm:p-6">
            <CardTitle>Details</CardTitle>
            <CardDescription>New photos are reviewed by our moderators before they appear in the gallery.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5 p-4 pt-0 sm:p-6 sm:pt-0">
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

            <AltTextField
              id="upload-alt-text"
              length={altTextLength}
              error={errors.altText?.message}
              disabled={isBusy || uploaded !== null}
              {...register('altText')}
            />

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
                      // A 20 px box that answers a tap anywhere in the 44 px square around it (13 px beyond its 1 px border).
                      className="relative mt-0.5 after:absolute after:-inset-[13px] after:content-['']"
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
                <p id="upload-terms-error" className="pl-8 text-sm font-medium text-destructive dark:text-red-400">
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
                  Your photo was uploaded, but its {barsNoun} {bars.length === 1 ? 'was' : 'were'} not saved yet. Save{' '}
                  {bars.length === 1 ? 'it' : 'them'} again, or{' '}
                  <Link to="/dashboard" className="font-medium text-primary underline underline-offset-4">
                    go to My Dashboard
                  </Link>{' '}
                  and edit the photo there.
                </p>
              </div>
            )}

            {phase === 'uploading' && (
              <div className="flex flex-col gap-1.5">
                <UploadProgressBar percent={progress} />
                <TransferNote status={transfer} />
              </div>
            )}

            <div className="flex flex-col gap-2 sm:flex-row">
              <Button type="submit" size="lg" className="w-full sm:flex-1" disabled={!file || isBusy}>
                <ImageUp aria-hidden="true" />
                {submitLabel}
              </Button>
              {phase === 'uploading' && (
                <Button variant="outline" size="lg" onClick={cancelUpload}>
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

/** Why the progress stands still, or where it starts from: said politely to screen readers too. */
function TransferNote({ status }: { status: ResumableUploadStatus }) {
  const text =
    status === 'waiting'
      ? 'Connection lost. The upload will go on by itself when you are back online.'
      : status === 'resuming'
        ? 'Going on with your earlier upload of this photo.'
        : '';
  return (
    <p role="status" className={status === 'waiting' ? 'text-xs text-amber-700 dark:text-amber-400' : 'text-xs text-muted-foreground'}>
      {text}
    </p>
  );
}
