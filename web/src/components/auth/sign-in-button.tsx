import { LogIn } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useLoginHref } from '@/hooks/use-login-href';
import { redirectTo } from '@/lib/browser';

/** Every sign-in entry point: a full navigation to the gateway's login route, coming back to this page afterwards. */
export function SignInButton({ children = 'Sign In', showIcon = false, ...props }: ButtonProps & { showIcon?: boolean }) {
  const href = useLoginHref();
  return (
    <Button onClick={() => redirectTo(href)} {...props}>
      {showIcon && <LogIn aria-hidden="true" />}
      {children}
    </Button>
  );
}
