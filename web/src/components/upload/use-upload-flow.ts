import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router-dom';
import { suggestFaceBars } from '@/components/privacy-bars/face-suggestions';
import { getServerMessage } from '@/lib/api';
import { LEFT_PAGE, type ResumableUploadStatus } from '@/lib/resumable-upload';
import { toast } from '@/lib/toast';
import type { PrivacyBar, UploadedPhoto } from '@/lib/types';
import { useSavePrivacyBarsMutation, useUploadPhotoMutation } from '@/queries/upload';
import { usePhotoDropzone } from './photo-dropzone';
import { uploadFormSchema, type UploadFormInput, type UploadFormValues } from './upload-rules';
import { usePhotoPreview } from './use-photo-preview';

/** idle: editing (or stopped after a failure); uploading: the file is on its way; saving-bars: then its bars. */
export type UploadPhase = 'idle' | 'uploading' | 'saving-bars';

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The upload page's state and steps (SPEC "Upload"): the chosen file and its preview, the privacy bars, the form,
 * then the upload (with progress, cancellable) and the bars' save. Once the photo is stored it is not sent again: if
 * only its bars failed to save, submitting again sends just the bars. The bytes go resumably: a cut connection waits
 * and goes on, and leaving the page (or reloading) keeps what was sent for the same file chosen again; Cancel deletes it.
 */
export function useUploadFlow() {
  const navigate = useNavigate();
  const uploadPhoto = useUploadPhotoMutation((error) =>
    // Cancelled by the member, or by leaving the page: nothing failed.
    isAbortError(error) ? undefined : { title: 'Upload Failed', description: getServerMessage(error, 'Failed to upload photo. Please try again.') },
  );
  const savePrivacyBars = useSavePrivacyBarsMutation((error) => ({
    title: 'Failed to Save Privacy Bars',
    description: getServerMessage(error, 'Please try again.'),
  }));

  const [file, setFile] = useState<File | null>(null);
  const [bars, setBars] = useState<PrivacyBar[]>([]);
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [progress, setProgress] = useState(0);
  const [transfer, setTransfer] = useState<ResumableUploadStatus>('sending');
  const [uploaded, setUploaded] = useState<UploadedPhoto | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const isBusy = phase !== 'idle';
  const preview = usePhotoPreview(file);

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
    defaultValues: { description: '', altText: '', agreeToTerms: false },
  });
  const descriptionLength = useWatch({ control, name: 'description' })?.length ?? 0;
  const altTextLength = useWatch({ control, name: 'altText' })?.length ?? 0;

  // Leaving the page stops sending but keeps what was sent: choosing the same file again goes on from there.
  useEffect(() => () => abortRef.current?.abort(LEFT_PAGE), []);

  /** False when the bars could not be saved (the failure has been told). */
  const saveBars = async (photo: UploadedPhoto): Promise<boolean> => {
    if (bars.length === 0) return true;
    setPhase('saving-bars');
    try {
      await savePrivacyBars.mutateAsync({ photoId: photo.id, bars });
      return true;
    } catch {
      setPhase('idle');
      return false;
    }
  };

  const submit = async ({ description, altText }: Pick<UploadFormValues, 'description' | 'altText'>) => {
    if (!file || isBusy) return;
    let photo = uploaded;
    if (!photo) {
      const controller = new AbortController();
      abortRef.current = controller;
      setProgress(0);
      setTransfer('sending');
      setPhase('uploading');
      try {
        photo = await uploadPhoto.mutateAsync({
          file,
          description,
          altText,
          signal: controller.signal,
          onProgress: ({ percent }) => setProgress(percent),
          onStatus: setTransfer,
        });
      } catch {
        setPhase('idle');
        return;
      } finally {
        abortRef.current = null;
      }
      setUploaded(photo);
    }
    if (!(await saveBars(photo))) return;
    setPhase('idle');
    toast({ title: 'Success', description: 'Your photo was uploaded and is awaiting review.' });
    navigate('/dashboard');
  };

  return {
    file,
    preview,
    dropzone,
    bars,
    setBars,
    /** Faces in the previewed picture, as bars; only while there is a preview. */
    suggestFaces: preview.status === 'ready' ? () => suggestFaceBars(preview.image) : undefined,
    removeFile: () => {
      setFile(null);
      setBars([]);
      dropzone.clearErrors();
    },
    form: { control, register, errors, descriptionLength, altTextLength },
    onSubmit: (event: FormEvent<HTMLFormElement>) => void handleSubmit(submit)(event),
    phase,
    isBusy,
    /** 0–100 while uploading. */
    progress,
    /** While uploading: sending, going on with an earlier upload of the same file, or waiting for the connection. */
    transfer,
    /** Set once the photo is stored. */
    uploaded,
    cancelUpload: () => abortRef.current?.abort(),
  };
}
