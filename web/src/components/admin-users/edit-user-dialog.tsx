import { useState, type ReactElement } from 'react';
import { useIsMutating } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { FormField } from '@/components/contact/form-field';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api';
import { getDisplayName } from '@/lib/user';
import type { AdminUser, AdminUserEdit } from '@/lib/types';
import { editAdminUserMutationKey, useUpdateAdminUserMutation } from '@/queries/admin-users';
import { DISPLAY_NAME_MAX_LENGTH, editUserSchema, type EditUserValues } from './edit-user-schema';
import { toastSuccess, updateFailureToast } from './mutation-feedback';
import { OWN_ACCOUNT_LOCKED } from './user-flag-switch';
import { userLabel } from './user-labels';
import { DialogFormFooter } from '@/components/dialog-form-footer';

/**
 * Edits a user's display name, email and the enabled and admin flags (SPEC §2 User management). `children` is the
 * button that opens it; focus returns there when the dialog closes.
 */
export function EditUserDialog({
  user,
  isSelf,
  currentUserId,
  children,
}: {
  user: AdminUser;
  isSelf: boolean;
  currentUserId: string | undefined;
  children: ReactElement;
}) {
  const [open, setOpen] = useState(false);
  // Kept open while saving, so the outcome is seen where the edit was made.
  const isSaving = useIsMutating({ mutationKey: editAdminUserMutationKey(user.id) }) > 0;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!isSaving) setOpen(next);
      }}
    >
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription className="wrap-anywhere">Change how {userLabel(user)} appears and what they may do.</DialogDescription>
        </DialogHeader>
        {open && <EditUserForm user={user} isSelf={isSelf} currentUserId={currentUserId} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditUserForm({
  user,
  isSelf,
  currentUserId,
  onDone,
}: {
  user: AdminUser;
  isSelf: boolean;
  currentUserId: string | undefined;
  onDone: () => void;
}) {
  const initial: EditUserValues = {
    displayName: user.displayName ?? '',
    email: user.email ?? '',
    isEnabled: user.isEnabled,
    isAdmin: user.isAdmin,
  };
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<EditUserValues>({ resolver: zodResolver(editUserSchema(initial)), defaultValues: initial });
  const mutation = useUpdateAdminUserMutation({
    currentUserId,
    mutationKey: editAdminUserMutationKey(user.id),
    onSuccess: (updated) => {
      toastSuccess(`${userLabel(updated)}'s account has been updated.`);
      onDone();
    },
    onError: (error) => {
      // The one refusal tied to a field: the email belongs to another account (409).
      if (error instanceof ApiError && error.status === 409) setError('email', { message: error.serverMessage('Another account already uses this email address') });
    },
    errorToast: updateFailureToast,
  });
  const isSaving = mutation.isPending;
  const nameLength = useWatch({ control, name: 'displayName' })?.length ?? 0;
  const idOf = (field: string) => `edit-user-${user.id}-${field}`;

  const onSubmit = handleSubmit((values) => {
    const edit: AdminUserEdit = {};
    if (values.displayName !== initial.displayName) edit.displayName = values.displayName;
    if (values.email !== initial.email) edit.email = values.email;
    if (values.isEnabled !== initial.isEnabled) edit.isEnabled = values.isEnabled;
    if (values.isAdmin !== initial.isAdmin) edit.isAdmin = values.isAdmin;
    if (Object.keys(edit).length === 0) {
      onDone();
      return;
    }
    mutation.mutate({ id: user.id, edit });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormField id={idOf('display-name')} label="Display Name" error={errors.displayName?.message} hint={`${nameLength}/${DISPLAY_NAME_MAX_LENGTH}`}>
        <Input autoComplete="off" placeholder={getDisplayName(user, '') || 'Display name'} disabled={isSaving} {...register('displayName')} />
      </FormField>
      <FormField id={idOf('email')} label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="off" placeholder="name@example.com" disabled={isSaving} {...register('email')} />
      </FormField>

      <fieldset className="flex flex-col divide-y rounded-lg border px-4">
        <legend className="sr-only">Permissions</legend>
        <FlagRow
          id={idOf('enabled')}
          label="Account Enabled"
          description="A disabled account is signed out at once and cannot sign in."
          control={control}
          name="isEnabled"
          locked={isSelf}
          disabled={isSaving}
        />
        <FlagRow
          id={idOf('admin')}
          label="Administrator"
          description="Administrators review photos, manage users and answer support messages."
          control={control}
          name="isAdmin"
          locked={isSelf}
          disabled={isSaving}
        />
      </fieldset>
      {isSelf && <p className="text-sm text-muted-foreground">{OWN_ACCOUNT_LOCKED}</p>}

      <DialogFormFooter pending={isSaving} icon={Save} action="Save Changes" busy="Saving..." />
    </form>
  );
}

function FlagRow({
  id,
  label,
  description,
  control,
  name,
  locked,
  disabled,
}: {
  id: string;
  label: string;
  description: string;
  control: ReturnType<typeof useForm<EditUserValues>>['control'];
  name: 'isEnabled' | 'isAdmin';
  locked: boolean;
  disabled: boolean;
}) {
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            checked={field.value}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            disabled={locked || disabled}
            aria-describedby={`${id}-description`}
          />
        )}
      />
    </div>
  );
}
