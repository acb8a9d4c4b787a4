import { LogIn } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { LOGIN_URL, redirectTo } from '@/lib/browser';

/** Every sign-in entry point: a full navigation to the gateway's login route. */
export function SignInButton({ children = 'Sign In', showIcon = false, ...props }: ButtonProps & { showIcon?: boolean }) {
  return (
    <Button onClick={() => redirectTo(LOGIN_URL)} {...props}>
      {showIcon && <LogIn aria-hidden="true" />}
      {children}
    </Button>
  );
}
