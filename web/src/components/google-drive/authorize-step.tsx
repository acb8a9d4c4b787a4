import { useState } from 'react';
import { ExternalLink, KeyRound, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDriveAuthUrlMutation } from '@/queries/google-drive';
import { toastDriveFailure } from './feedback';
import { SetupStep } from './setup-step';

export const AUTH_URL_FAILED = 'Failed to generate authorization URL';

/** Only web addresses may be opened: never a javascript: or data: URL, whatever the server sends. */
function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Step 1: fetch Google's consent-screen URL and open it in a new tab. The tab is opened (blank) during
 * the click itself, so popup blockers allow it, and is pointed at the URL once the server answers.
 */
export function AuthorizeStep() {
  const mutation = useDriveAuthUrlMutation();
  const [authUrl, setAuthUrl] = useState<string | null>(null);

  const openAuthorization = () => {
    const tab = window.open('', '_blank');
    mutation.mutate(undefined, {
      onSuccess: (data) => {
        const url = data?.authUrl;
        if (!isWebUrl(url)) {
          tab?.close();
          toastDriveFailure(AUTH_URL_FAILED, null);
          return;
        }
        setAuthUrl(url);
        if (tab && !tab.closed) {
          tab.opener = null;
          tab.location.href = url;
        } else {
          window.open(url, '_blank', 'noopener,noreferrer');
        }
      },
      onError: (error) => {
        tab?.close();
        toastDriveFailure(AUTH_URL_FAILED, error);
      },
    });
  };

  return (
    <SetupStep
      number={1}
      title="Authorize Google Drive"
      description="Open Google's authorization page in a new tab, sign in with the Google account whose Drive should hold the photos, and allow access."
      done={authUrl !== null}
    >
      <div className="flex flex-col gap-3">
        <Button onClick={openAuthorization} disabled={mutation.isPending} className="w-full sm:w-fit">
          {mutation.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
          {mutation.isPending ? 'Opening...' : 'Open Google Authorization'}
        </Button>
        {authUrl && (
          <p className="text-sm text-muted-foreground">
            The authorization page did not open?{' '}
            <a
              href={authUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              Open it here
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        )}
      </div>
    </SetupStep>
  );
}
