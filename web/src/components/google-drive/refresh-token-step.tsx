import { useRef } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { SetupStep } from './setup-step';

function Code({ children }: { children: string }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.9em] text-foreground">{children}</code>;
}

/** Step 3: the refresh token, a copy button, and where to put it on the server. */
export function RefreshTokenStep({ token }: { token: string | null }) {
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  const copy = async () => {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token);
      toast({ title: 'Copied', description: 'The refresh token is on your clipboard.' });
    } catch {
      // Clipboard access can be refused (insecure origin, permissions): leave the token selected instead.
      fieldRef.current?.focus();
      fieldRef.current?.select();
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: 'The token is selected: copy it with Ctrl+C or ⌘C.',
      });
    }
  };

  return (
    <SetupStep
      number={3}
      title="Store the Refresh Token"
      description="Save the token as a server secret so the server can store photos in Google Drive."
      done={token !== null}
    >
      {token ? (
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="drive-refresh-token">Refresh Token</Label>
            <Textarea
              ref={fieldRef}
              id="drive-refresh-token"
              readOnly
              rows={3}
              value={token}
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
              className="resize-none font-mono text-sm break-all"
            />
            <Button onClick={() => void copy()} className="w-full sm:w-fit">
              <Copy aria-hidden="true" />
              Copy Token
            </Button>
          </div>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-muted-foreground marker:font-semibold marker:text-foreground">
            <li>
              Add a server secret named <Code>GOOGLE_REFRESH_TOKEN</Code> with this token as its value.
            </li>
            <li>
              Set <Code>STORAGE_TYPE=drive</Code> so new photos are stored in Google Drive.
            </li>
            <li>Restart the server to apply the change.</li>
          </ol>
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-200">
            Keep this token secret: anyone who has it can reach the files in that Google Drive. Do not paste it into
            chats, issues or source code.
          </p>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Complete steps 1 and 2 and your refresh token will appear here.</p>
      )}
    </SetupStep>
  );
}
