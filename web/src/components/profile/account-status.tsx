import { Badge } from '@/components/ui/badge';
import type { User } from '@/lib/types';

/** The user id as the profile shows it (SPEC §2): its first 8 characters. */
export function shortUserId(id: string): string {
  return id.slice(0, 8);
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Account status, and the upload and vote permissions, shown as Enabled (SPEC §2). */
export function AccountStatus({ user }: { user: User }) {
  return (
    <dl className="divide-y">
      <Row label="Account Status">
        <Badge variant={user.isEnabled ? 'secondary' : 'destructive'}>{user.isEnabled ? 'Active' : 'Disabled'}</Badge>
      </Row>
      <Row label="Account Type">
        <Badge variant={user.isAdmin ? 'default' : 'outline'}>{user.isAdmin ? 'Administrator' : 'User'}</Badge>
      </Row>
      <Row label="Upload Permission">
        <Badge variant="secondary">Enabled</Badge>
      </Row>
      <Row label="Vote Permission">
        <Badge variant="secondary">Enabled</Badge>
      </Row>
      <Row label="User ID">
        <code className="font-mono text-xs" title={user.id}>
          {shortUserId(user.id)}
        </code>
      </Row>
    </dl>
  );
}
