import { DRIVE_AUTHORIZATION } from '@snapcracks/http-contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/lib/toast';
import { useDriveExchangeTokenMutation } from '@/queries/google-drive';
import { toastDriveFailure } from './feedback';
import { SetupStep } from './setup-step';

export const CODE_REQUIRED = DRIVE_AUTHORIZATION.codeRequired;
export const EXCHANGE_FAILED = 'Failed to exchange authorization code';

/** Step 2: paste the code Google showed and trade it for a refresh token. */
export function ExchangeCodeStep({ done, onToken }: { done: boolean; onToken: (token: string) => void }) {
  const mutation = useDriveExchangeTokenMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const inputId = `${id}-code`;
  const errorId = `${id}-error`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError(CODE_REQUIRED);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    mutation.mutate(trimmed, {
      onSuccess: (data) => {
        const token = data?.refreshToken;
        if (typeof token !== 'string' || !token) {
          toastDriveFailure(EXCHANGE_FAILED, null);
          return;
        }
        setCode('');
        onToken(token);
        toast({ title: 'Success', description: 'Refresh token generated. Copy it in step 3.' });
      },
      onError: (failure) => toastDriveFailure(EXCHANGE_FAILED, failure),
    });
  };

  return (
    <SetupStep
      number={2}
      title="Generate a Refresh Token"
      description="If Google shows you an authorization code instead of bringing you back here, paste it below."
      done={done}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-2">
        <Label htmlFor={inputId}>Authorization Code</Label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Input
            ref={inputRef}
            id={inputId}
            name="code"
            autoComplete="off"
            spellCheck={false}
            placeholder="4/0A..."
            value={code}
            disabled={mutation.isPending}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setCode(event.target.value);
              if (error && event.target.value.trim()) setError(null);
            }}
            className="font-mono"
          />
          <Button type="submit" disabled={mutation.isPending} className="sm:w-fit">
            {mutation.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
            {mutation.isPending ? 'Generating...' : 'Generate Refresh Token'}
          </Button>
        </div>
        {error && (
          <p id={errorId} className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </form>
    </SetupStep>
  );
}
