import { ALLOWANCE } from '@snapcracks/http-contract';
import { useId, useState, type FormEvent } from 'react';
import { Hourglass, Loader2, Save } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { UploadAllowanceSettings } from '@/lib/types';
import { useSetUploadAllowanceSettingsMutation, useUploadAllowanceSettingsQuery } from '@/queries/upload-allowance';
import { DialogFormFooter } from '@/components/dialog-form-footer';

const FIELDS: { key: keyof UploadAllowanceSettings; label: string; hint: string }[] = [
  { key: 'pendingLimit', label: 'Photos waiting at once', hint: 'What every member may have in the review queue.' },
  { key: 'trustedAfter', label: 'Approved photos for more', hint: 'With no rejection or removal in 90 days.' },
  { key: 'trustedPendingLimit', label: 'Photos waiting at once, then', hint: 'At least the first number.' },
];

/**
 * The admins' upload allowances: how many photos a member may have waiting for review at once, and how members earn
 * more. Each rejection or removal in the last 30 days lowers a member's allowance by one, never below one.
 */
export function UploadAllowanceDialog() {
  const [open, setOpen] = useState(false);
  const settings = useUploadAllowanceSettingsQuery({ enabled: open });
  const save = useSetUploadAllowanceSettingsMutation(
    (error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to save the upload allowance. Please try again.') }),
    () => {
      setOpen(false);
      toast({ title: 'Upload Allowance Saved', description: 'Every member’s allowance now follows these numbers.' });
    },
  );
  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Hourglass aria-hidden="true" />
          Upload Allowance
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Upload Allowance</DialogTitle>
          <DialogDescription>
            How many photos a member may have waiting for review at once. Every photo is still reviewed; each rejection or removal in
            the last 30 days lowers a member’s allowance by one, never below one.
          </DialogDescription>
        </DialogHeader>
        {settings.data ? (
          <AllowanceForm initial={settings.data} isPending={save.isPending} onSave={(next) => save.mutate(next)} />
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-destructive dark:text-red-400">
            The allowance could not be loaded.
          </p>
        ) : (
          <Loader2 className="mx-auto size-6 animate-spin text-muted-foreground" aria-label="Loading" />
        )}
      </DialogContent>
    </Dialog>
  );
}

function AllowanceForm({ initial, isPending, onSave }: { initial: UploadAllowanceSettings; isPending: boolean; onSave: (settings: UploadAllowanceSettings) => void }) {
  const [values, setValues] = useState<Record<keyof UploadAllowanceSettings, string>>({
    pendingLimit: String(initial.pendingLimit),
    trustedAfter: String(initial.trustedAfter),
    trustedPendingLimit: String(initial.trustedPendingLimit),
  });
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, /^\d{1,4}$/.test(value.trim()) ? Number(value) : NaN])) as UploadAllowanceSettings;
    const valid = Object.values(parsed).every((n) => Number.isInteger(n) && n >= 1 && n <= ALLOWANCE.maxSetting);
    if (!valid || parsed.trustedPendingLimit < parsed.pendingLimit) return setError(ALLOWANCE.settingInvalid);
    setError(null);
    onSave(parsed);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      {FIELDS.map(({ key, label, hint }) => (
        <div key={key} className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-${key}`}>{label}</Label>
          <Input
            id={`${id}-${key}`}
            inputMode="numeric"
            value={values[key]}
            disabled={isPending}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-${key}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(event) => {
              setValues((current) => ({ ...current, [key]: event.target.value }));
              if (error) setError(null);
            }}
          />
          <p id={`${id}-${key}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        </div>
      ))}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
          {error}
        </p>
      )}
      <DialogFormFooter pending={isPending} icon={Save} action="Save" busy="Saving..." />
    </form>
  );
}
