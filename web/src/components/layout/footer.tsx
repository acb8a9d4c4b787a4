import { Link } from 'react-router-dom';
import type { ReactNode } from 'react';

function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded-sm text-sm text-muted-foreground outline-none transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </Link>
  );
}

/** A footer entry whose page does not exist yet: shown, but not a link. */
function FooterPlaceholder({ children }: { children: ReactNode }) {
  return (
    <span className="cursor-default text-sm text-muted-foreground/70" aria-disabled="true" title="Coming soon">
      {children}
    </span>
  );
}

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold">{title}</h2>
      <ul className="flex flex-col gap-2">{children}</ul>
    </div>
  );
}

export function Footer() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div>
          <p className="text-lg font-bold tracking-tight">Snap Cracks</p>
          <p className="mt-2 text-sm text-muted-foreground">
            Snap the unexpected cracks you find, share them with the community and vote on the best.
          </p>
        </div>
        <FooterColumn title="Explore">
          <li><FooterPlaceholder>Gallery</FooterPlaceholder></li>
          <li><FooterPlaceholder>Top Rated</FooterPlaceholder></li>
          <li><FooterPlaceholder>Recent</FooterPlaceholder></li>
        </FooterColumn>
        <FooterColumn title="Support">
          <li><FooterLink to="/contact">Contact Us</FooterLink></li>
          <li><FooterPlaceholder>Help Center</FooterPlaceholder></li>
        </FooterColumn>
        <FooterColumn title="Legal">
          <li><FooterLink to="/legal#terms">Terms of Service</FooterLink></li>
          <li><FooterLink to="/legal#privacy">Privacy Policy</FooterLink></li>
          <li><FooterLink to="/legal#community">Community Guidelines</FooterLink></li>
        </FooterColumn>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-7xl px-4 py-6 text-center text-sm text-muted-foreground sm:px-6 lg:px-8">
          © 2025 Snap Cracks. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
