import { Info } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

function Code({ children }: { children: string }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.9em] break-all text-foreground">{children}</code>;
}

/** What this page is for and how the three steps fit together. */
export function SetupInstructions() {
  const callbackUrl = `${window.location.origin}/api/google-drive/callback`;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Info className="size-5 text-primary" aria-hidden="true" />
          Instructions
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="list-disc space-y-2 pl-5 text-sm text-muted-foreground">
          <li>
            Photos are stored on the server's disk by default. To store them in Google Drive instead, the server needs
            a refresh token for the Google account that owns the Drive.
          </li>
          <li>
            The server's Google OAuth client must be configured, with <Code>{callbackUrl}</Code> as an authorized
            redirect URI.
          </li>
          <li>
            After you allow access, Google either brings you back here with the token already in step 3, or shows an
            authorization code to paste in step 2.
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}
