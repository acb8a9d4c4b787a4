import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { FormField } from '@/components/contact/form-field';
import { AltTextField } from '@/components/photo/alt-text-field';
import { suggestFaceBarsAt } from '@/components/privacy-bars/face-suggestions';
import { PrivacyBarEditor } from '@/components/privacy-bars/privacy-bar-editor';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import type { PrivacyBar, UserPhoto } from '@/lib/types';
import type { useEditUserPhotoMutation } from '@/queries/user-photos';
import { editPhotoSchema, PHOTO_DESCRIPTION_MAX_LENGTH, type EditPhotoInput, type EditPhotoValues } from './edit-photo-schema';
import { photoImageAlt } from './photo-label';
import { DialogFormFooter } from '@/components/dialog-form-footer';

function barsOf(photo: UserPhoto): PrivacyBar[] {
  return Array.isArray(photo.privacyBars) ? photo.privacyBars : [];
}

function sameBars(a: readonly PrivacyBar[], b: readonly PrivacyBar[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (bar, index) =>
        bar.x === b[index]?.x && bar.y === b[index]?.y && bar.width === b[index]?.width && bar.height === b[index]?.height,
    )
  );
}

/** The edit dialog's form, in a file of its own: with react-hook-form and zod, it loads when a dialog first opens. */
export function EditPhotoForm({
  photo,
  mutation,
  onSaved,
}: {
  photo: UserPhoto;
  mutation: ReturnType<typeof useEditUserPhotoMutation>;
  onSaved: () => void;
}) {
  const initialDescription = photo.description ?? '';
  const initialAltText = photo.altText?.trim() || null;
  const initialBars = barsOf(photo);
  const [bars, setBars] = useState<PrivacyBar[]>(initialBars);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<EditPhotoInput, unknown, EditPhotoValues>({
    resolver: zodResolver(editPhotoSchema),
    defaultValues: { description: initialDescription, altText: photo.altText ?? '' },
  });
  const descriptionLength = useWatch({ control, name: 'description' })?.length ?? 0;
  const altTextLength = useWatch({ control, name: 'altText' })?.length ?? 0;
  const isSaving = mutation.isPending;

  const onSubmit = handleSubmit(({ description, altText }) => {
    // Trimmed by the schema; blank is none.
    const nextAltText = altText || null;
    const descriptionChanged = description !== initialDescription;
    const altTextChanged = nextAltText !== initialAltText;
    const barsChanged = !sameBars(bars, initialBars);
    if (!descriptionChanged && !altTextChanged && !barsChanged) {
      onSaved();
      return;
    }
    mutation.mutate(
      {
        id: photo.id,
        // The PATCH always carries the description; the alt text only when it changed (left out, it stays).
        details: descriptionChanged || altTextChanged ? { description, ...(altTextChanged && { altText: nextAltText }) } : undefined,
        bars: barsChanged ? bars : undefined,
      },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'Your photo has been updated.' });
          onSaved();
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <FormField
        id={`photo-${photo.id}-description`}
        label="Description"
        error={errors.description?.message}
        hint={`${descriptionLength}/${PHOTO_DESCRIPTION_MAX_LENGTH}`}
      >
        <Textarea rows={3} placeholder="Describe your crack" disabled={isSaving} {...register('description')} />
      </FormField>

      <AltTextField
        id={`photo-${photo.id}-alt-text`}
        length={altTextLength}
        error={errors.altText?.message}
        disabled={isSaving}
        {...register('altText')}
      />

      <section aria-labelledby={`photo-${photo.id}-bars-title`} className="flex flex-col gap-2">
        <h3 id={`photo-${photo.id}-bars-title`} className="text-sm leading-none font-medium">
          Privacy Bars
        </h3>
        <PrivacyBarEditor
          imageUrl={photo.originalUrl || null}
          alt={photoImageAlt(photo)}
          bars={bars}
          onChange={setBars}
          disabled={isSaving}
          suggestFaces={photo.originalUrl ? () => suggestFaceBarsAt(photo.originalUrl) : undefined}
        />
      </section>

      {/* Sticks to the bottom of the scrolling dialog so Save stays in reach below a tall photo. */}
      <DialogFormFooter className="sticky -bottom-6 z-10 -mx-6 -mb-6 border-t bg-background px-6 py-4" pending={isSaving} icon={Save} action="Save Changes" busy="Saving..." />
    </form>
  );
}
