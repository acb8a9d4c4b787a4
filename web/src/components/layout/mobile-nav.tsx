import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { Bell, LogOut, Menu, Settings, User as UserIcon } from 'lucide-react';
import { SignInButton } from '@/components/auth/sign-in-button';
import { UnreadBadge } from '@/components/notifications/notification-bell';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { UserAvatar } from '@/components/user-avatar';
import { LOGOUT_URL } from '@/lib/api';
import { redirectTo } from '@/lib/browser';
import type { User } from '@/lib/types';
import { getDisplayName } from '@/lib/user';
import { cn } from '@/lib/utils';
import { useUnreadNotificationCount } from '@/queries/notifications';
import type { NavLinkItem } from './nav-links';

const drawerLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center gap-3 rounded-md px-3 py-2.5 text-base font-medium outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
    isActive && 'bg-accent text-accent-foreground',
  );

/** The navbar's side drawer on small screens: the same links, plus the account entries and the notifications. */
export function MobileNav({ links, user, showNotifications = false }: { links: NavLinkItem[]; user: User | null; showNotifications?: boolean }) {
  const unread = useUnreadNotificationCount({ enabled: showNotifications });
  // Controlled so that following a link closes the drawer. (SheetClose asChild cannot wrap a NavLink:
  // Slot would merge NavLink's className function into a string.)
  const [isOpen, setIsOpen] = useState(false);
  const close = () => setIsOpen(false);
  return (
    <Sheet open={isOpen} onOpenChange={setIsOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation menu">
          <Menu className="size-5" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent>
        <SheetHeader>
          <SheetTitle>Menu</SheetTitle>
          <SheetDescription className="sr-only">Navigate Snap Cracks</SheetDescription>
        </SheetHeader>
        {user && (
          <div className="flex items-center gap-3">
            <UserAvatar user={user} className="size-10" />
            <div className="min-w-0">
              <p className="truncate font-medium">{getDisplayName(user)}</p>
              {user.email && <p className="truncate text-sm text-muted-foreground">{user.email}</p>}
            </div>
          </div>
        )}
        <nav aria-label="Mobile" className="flex flex-col gap-1">
          {links.map(({ to, label, icon: Icon }) => (
            <NavLink key={to} to={to} end={to === '/'} className={drawerLinkClass} onClick={close}>
              <Icon className="size-5" aria-hidden="true" />
              {label}
            </NavLink>
          ))}
          {user && (
            <>
              <Separator className="my-2" />
              {showNotifications && (
                <NavLink to="/notifications" className={drawerLinkClass} onClick={close}>
                  <Bell className="size-5" aria-hidden="true" />
                  Notifications
                  <UnreadBadge count={unread} className="ml-auto" />
                  {/* The badge is hidden from screen readers; its count is read here, after the visible name. */}
                  {unread ? <span className="sr-only">, {unread} unread</span> : null}
                </NavLink>
              )}
              <NavLink to="/profile" className={drawerLinkClass} onClick={close}>
                <UserIcon className="size-5" aria-hidden="true" />
                Profile
              </NavLink>
              <NavLink to="/settings" className={drawerLinkClass} onClick={close}>
                <Settings className="size-5" aria-hidden="true" />
                Settings
              </NavLink>
            </>
          )}
        </nav>
        <div className="mt-auto">
          {user ? (
            <Button variant="outline" className="w-full" onClick={() => redirectTo(LOGOUT_URL)}>
              <LogOut aria-hidden="true" />
              Sign Out
            </Button>
          ) : (
            <SignInButton className="w-full" showIcon />
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
