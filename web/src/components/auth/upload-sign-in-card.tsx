import { Camera } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSkeleton } from '@/components/page-skeleton';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { SignInButton } from './sign-in-button';

/** The signed-out /upload screen. */
export function UploadSignInCard() {
  const { isLoading } = useAuth();
  useDocumentTitle('Sign in to upload');
  if (isLoading) return <PageSkeleton />;
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <div className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Camera className="size-6" aria-hidden="true" />
          </div>
          <CardTitle as="h1">Snap Cracks</CardTitle>
          <CardDescription>You need to sign in to upload photos of the cracks you find.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <SignInButton className="w-full" size="lg" showIcon>
            Sign In to Snap
          </SignInButton>
          <p className="text-xs text-muted-foreground">
            Signing in creates your Snap Cracks account if you don't have one yet.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
