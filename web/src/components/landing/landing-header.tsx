import { SignInButton } from '@/components/auth/sign-in-button';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';

/** The landing page's own top bar: the brand and a Sign In button, without the app's navigation links. */
export function LandingHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo />
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <SignInButton showIcon />
        </div>
      </div>
    </header>
  );
}
