import { Link } from 'react-router-dom';
import { LayoutDashboard, LogOut, Settings, Shield, Upload } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LOGOUT_URL } from '@/lib/api';
import type { User } from '@/lib/types';

const LINKS = [
  { to: '/settings', label: 'Settings', icon: Settings },
  { to: '/upload', label: 'Upload a Crack', icon: Upload },
  { to: '/dashboard', label: 'My Dashboard', icon: LayoutDashboard },
] as const;

/** SPEC §2: links to /settings, /upload, /dashboard, /admin (admins) and sign-out. */
export function QuickActions({ user }: { user: User }) {
  return (
    <nav aria-label="Quick actions" className="flex flex-col gap-2">
      {LINKS.map(({ to, label, icon: Icon }) => (
        <Button key={to} asChild variant="outline" className="justify-start">
          <Link to={to}>
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </Link>
        </Button>
      ))}
      {user.isAdmin && (
        <Button asChild variant="outline" className="justify-start">
          <Link to="/admin">
            <Shield className="size-4" aria-hidden="true" />
            Admin Dashboard
          </Link>
        </Button>
      )}
      <Button asChild variant="ghost" className="justify-start text-destructive hover:text-destructive dark:text-red-400 dark:hover:text-red-300">
        {/* A full page load: the gateway ends the session and redirects. */}
        <a href={LOGOUT_URL}>
          <LogOut className="size-4" aria-hidden="true" />
          Sign Out
        </a>
      </Button>
    </nav>
  );
}
