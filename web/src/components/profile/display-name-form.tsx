import { DISPLAY_NAME, schemas } from '@snapcracks/http-contract';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormField } from '@/components/contact/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import type { User } from '@/lib/types';
import { useUpdateDisplayNameMutation } from '@/queries/profile';

export const DISPLAY_NAME_MAX = DISPLAY_NAME.maxLength;

/** SPEC §5: required, at most 50, trimmed: the body PUT /api/profile takes. */
export const displayNameFormSchema = schemas.profileBody;

export function DisplayNameForm({ user }: { user: User }) {
  const updateName = useUpdateDisplayNameMutation({ title: 'Error', description: 'Failed to update display name. Please try again.' });
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty },
  } = useForm({
    resolver: zodResolver(displayNameFormSchema),
    defaultValues: { displayName: user.displayName ?? '' },
  });
  const length = (useWatch({ control, name: 'displayName' }) ?? '').trim().length;

  // The saved name (from this form or elsewhere) becomes the new starting point.
  useEffect(() => reset({ displayName: user.displayName ?? '' }), [user.displayName, reset]);

  const submit = handleSubmit(({ displayName }) =>
    updateName.mutate(displayName, {
      onSuccess: (saved) => toast({ title: 'Success', description: `Your display name is now ${saved.displayName ?? displayName}.` }),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="flex-1">
        <FormField
          id="display-name"
          label="Display Name"
          error={errors.displayName?.message}
          hint={`${length}/${DISPLAY_NAME_MAX}`}
        >
          <Input autoComplete="nickname" placeholder="How others see you" disabled={updateName.isPending} {...register('displayName')} />
        </FormField>
      </div>
      <Button type="submit" className="sm:mt-[1.375rem]" disabled={updateName.isPending || !isDirty}>
        {updateName.isPending ? 'Saving...' : 'Save'}
      </Button>
    </form>
  );
}
