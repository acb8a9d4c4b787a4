import { AlertTriangle, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** A gallery page that could not be loaded says so, with Retry: it is not an empty filter. */
export function GalleryLoadError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
        <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
        <h3 className="text-xl font-semibold text-card-foreground">The photos could not be loaded</h3>
        <p className="max-w-md text-muted-foreground">Check your connection, then try again.</p>
        <Button variant="outline" className="mt-2" onClick={onRetry} disabled={isRetrying}>
          <RotateCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
          Retry
        </Button>
      </CardContent>
    </Card>
  );
}
