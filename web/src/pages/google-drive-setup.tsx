import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AuthorizeStep } from '@/components/google-drive/authorize-step';
import { ExchangeCodeStep } from '@/components/google-drive/exchange-code-step';
import { RefreshTokenStep } from '@/components/google-drive/refresh-token-step';
import { SetupInstructions } from '@/components/google-drive/setup-instructions';
import { PageContainer, PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { toast } from '@/lib/toast';

export const OAUTH_CALLBACK_FAILED = 'Failed to generate refresh token via OAuth callback.';
const CALLBACK_PARAMS = ['token', 'error'] as const;

/** How long a callback error from the address may be when it is shown back to the user. */
const MAX_ERROR_DETAIL_LENGTH = 200;

/**
 * The storage setup page (SPEC §2): get a Google Drive refresh token for the server. The server's OAuth
 * callback returns here with `?token=` or `?error=`; either is read once and then removed from the address
 * (the token must not linger in history or be shared by copying the URL).
 */
export function GoogleDriveSetupPage() {
  useDocumentTitle('Google Drive Setup');
  const [searchParams, setSearchParams] = useSearchParams();
  const [callback] = useState(() => ({
    token: searchParams.get('token')?.trim() || null,
    error: searchParams.get('error'),
  }));
  const [refreshToken, setRefreshToken] = useState<string | null>(callback.token);
  const handledCallback = useRef(false);

  useEffect(() => {
    if (handledCallback.current) return;
    handledCallback.current = true;
    if (callback.token) {
      toast({ title: 'Success', description: 'Refresh token received. Copy it in step 3.' });
    } else if (callback.error !== null) {
      const detail = callback.error.trim().slice(0, MAX_ERROR_DETAIL_LENGTH);
      toast({ variant: 'destructive', title: OAUTH_CALLBACK_FAILED, description: detail || undefined });
    }
    if (CALLBACK_PARAMS.some((name) => searchParams.has(name))) {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          CALLBACK_PARAMS.forEach((name) => next.delete(name));
          return next;
        },
        { replace: true },
      );
    }
  }, [callback, searchParams, setSearchParams]);

  return (
    <PageContainer className="max-w-3xl">
      <PageHeader
        title="Google Drive Setup"
        description="Connect Google Drive as photo storage by generating a refresh token for the server."
      />
      <div className="mt-8 flex flex-col gap-6">
        <SetupInstructions />
        <AuthorizeStep />
        <ExchangeCodeStep done={refreshToken !== null} onToken={setRefreshToken} />
        <RefreshTokenStep token={refreshToken} />
      </div>
    </PageContainer>
  );
}
