import { Images, LayoutDashboard, ShieldCheck, Upload, type LucideIcon } from 'lucide-react';

export interface NavLinkItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** The navbar's links; Admin only for administrators. */
export function getNavLinks(isAdmin: boolean): NavLinkItem[] {
  const links: NavLinkItem[] = [
    { to: '/', label: 'Gallery', icon: Images },
    { to: '/upload', label: 'Upload', icon: Upload },
    { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  ];
  if (isAdmin) links.push({ to: '/admin', label: 'Admin', icon: ShieldCheck });
  return links;
}
