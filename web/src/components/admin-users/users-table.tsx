import type { AdminUser } from '@/lib/types';
import { UserActions } from './user-actions';
import { UserFlagSwitch } from './user-flag-switch';
import { UserIdentity } from './user-identity';
import { formatJoined, userLabel } from './user-labels';

interface UsersViewProps {
  users: AdminUser[];
  currentUserId: string | undefined;
  onDeleted: (id: string) => void;
}

/**
 * The users as a table, from tablet width up. Its layout is fixed, so a long name or email is cut with an ellipsis
 * instead of widening the table; on a tablet the email moves under the name and the join date waits for more room.
 */
export function UsersTable({ users, currentUserId, onDeleted }: UsersViewProps) {
  return (
    // `relative`: what the cells position (their screen-reader hints) stays inside the scroll box.
    <div className="relative overflow-x-auto rounded-xl border bg-card text-card-foreground">
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b bg-muted/50 text-left text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              User
            </th>
            <th scope="col" className="hidden w-[26%] px-4 py-3 font-medium lg:table-cell">
              Email
            </th>
            <th scope="col" className="w-24 px-4 py-3 font-medium">
              Enabled
            </th>
            <th scope="col" className="w-20 px-4 py-3 font-medium">
              Admin
            </th>
            <th scope="col" className="hidden w-32 px-4 py-3 font-medium lg:table-cell">
              Joined
            </th>
            <th scope="col" className="w-52 px-4 py-3 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {users.map((user) => {
            const isSelf = user.id === currentUserId;
            const email = user.email ?? 'Not provided';
            return (
              <tr key={user.id} className={user.isEnabled ? undefined : 'bg-muted/40'}>
                <th scope="row" className="px-4 py-3 text-left font-normal">
                  <UserIdentity user={user} isSelf={isSelf} />
                  <p className="truncate pt-1 pl-12 text-xs text-muted-foreground lg:hidden">
                    {email}
                  </p>
                </th>
                <td className="hidden truncate px-4 py-3 text-muted-foreground lg:table-cell" title={user.email ?? undefined}>
                  {email}
                </td>
                <td className="px-4 py-3">
                  <UserFlagSwitch user={user} flag="isEnabled" isSelf={isSelf} currentUserId={currentUserId} />
                </td>
                <td className="px-4 py-3">
                  <UserFlagSwitch user={user} flag="isAdmin" isSelf={isSelf} currentUserId={currentUserId} />
                </td>
                <td className="hidden px-4 py-3 whitespace-nowrap text-muted-foreground lg:table-cell">{formatJoined(user.createdAt)}</td>
                <td className="px-4 py-3">
                  <UserActions user={user} currentUserId={currentUserId} onDeleted={onDeleted} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The users as cards, on phones. */
export function UserCards({ users, currentUserId, onDeleted }: UsersViewProps) {
  return (
    <ul aria-label="Users" className="flex flex-col gap-4">
      {users.map((user) => {
        const isSelf = user.id === currentUserId;
        return (
          <li key={user.id} aria-label={userLabel(user)} className="flex flex-col gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm">
            <div className="flex flex-col gap-1">
              <UserIdentity user={user} isSelf={isSelf} />
              <p className="truncate pl-12 text-sm text-muted-foreground">{user.email ?? 'Email not provided'}</p>
            </div>
            {/* Each switch's row is 44 px tall: the switch's tap area (44 px) fits in it without reaching the next. */}
            <dl className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Enabled</dt>
              <dd className="flex min-h-11 items-center justify-end">
                <UserFlagSwitch user={user} flag="isEnabled" isSelf={isSelf} currentUserId={currentUserId} />
              </dd>
              <dt className="text-muted-foreground">Admin</dt>
              <dd className="flex min-h-11 items-center justify-end">
                <UserFlagSwitch user={user} flag="isAdmin" isSelf={isSelf} currentUserId={currentUserId} />
              </dd>
              <dt className="text-muted-foreground">Joined</dt>
              <dd className="text-right">{formatJoined(user.createdAt)}</dd>
            </dl>
            <UserActions user={user} currentUserId={currentUserId} onDeleted={onDeleted} stretch />
          </li>
        );
      })}
    </ul>
  );
}
