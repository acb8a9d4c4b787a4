import { Badge } from '@/components/ui/badge';
import { UserAvatar } from '@/components/user-avatar';
import { cn } from '@/lib/utils';
import type { AdminUser } from '@/lib/types';
import { userLabel } from './user-labels';

/** The avatar rule of SPEC §3, from the list's already-resolved `avatar`. */
export function AdminUserAvatar({ user, className }: { user: AdminUser; className?: string }) {
  return (
    <UserAvatar
      className={className}
      user={{ id: user.id, displayName: user.displayName, firstName: user.firstName, lastName: user.lastName, email: user.email, customProfileImage: null, profileImageUrl: user.avatar }}
    />
  );
}

/** Avatar, name (with "You" for the admin's own account) and, when it differs, the name from the sign-in. */
export function UserIdentity({ user, isSelf, className }: { user: AdminUser; isSelf: boolean; className?: string }) {
  const name = userLabel(user);
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className={cn('flex min-w-0 items-center gap-3', className)}>
      <AdminUserAvatar user={user} className="size-9 shrink-0" />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{name}</span>
          {isSelf && <Badge variant="secondary">You</Badge>}
        </p>
        {fullName && fullName !== name && <p className="truncate text-xs text-muted-foreground">{fullName}</p>}
      </div>
    </div>
  );
}
