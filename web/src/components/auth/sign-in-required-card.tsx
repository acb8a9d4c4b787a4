import { Lock } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSkeleton } from '@/components/page-skeleton';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { SignInButton } from './sign-in-button';

/** What a protected page shows to a signed-out visitor. */
export function SignInRequiredCard({ title }: { title: string }) {
  const { isLoading } = useAuth();
  useDocumentTitle(`Sign in to see ${title}`);
  // While the session is still being checked, do not tell a signed-in user to sign in.
  if (isLoading) return <PageSkeleton />;
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <div className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Lock className="size-6" aria-hidden="true" />
          </div>
          <CardTitle as="h1">{title}</CardTitle>
          <CardDescription>Please sign in to access this page.</CardDescription>
        </CardHeader>
        <CardContent>
          <SignInButton className="w-full" showIcon />
        </CardContent>
      </Card>
    </div>
  );
}
