import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { reloadPage } from '@/lib/browser';

/**
 * DOMExceptions come from browser APIs (an aborted request, a refused clipboard or media call, an
 * extension poking at the page) and do not mean the app is broken, so they never show the error screen.
 */
export function isIgnorableError(error: unknown): boolean {
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return true;
  return Object.prototype.toString.call(error) === '[object DOMException]';
}

export function ErrorScreen() {
  return (
    <div role="alert" className="flex min-h-screen items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 pt-6 text-center">
          <AlertTriangle className="size-12 text-destructive" aria-hidden="true" />
          <h1 className="text-2xl font-bold">Something went wrong</h1>
          <p className="text-muted-foreground">Please refresh the page</p>
          <Button onClick={reloadPage}>
            <RefreshCw aria-hidden="true" />
            Refresh Page
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

interface ErrorBoundaryState {
  hasError: boolean;
}

/**
 * Shows the refresh screen when rendering fails, and also for uncaught errors and rejections
 * elsewhere (event handlers, async code) that would otherwise leave a half-working page.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState | null {
    return isIgnorableError(error) ? null : { hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (!isIgnorableError(error)) console.error('Unhandled UI error', error, info.componentStack);
  }

  override componentDidMount(): void {
    window.addEventListener('error', this.onWindowError);
    window.addEventListener('unhandledrejection', this.onUnhandledRejection);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('error', this.onWindowError);
    window.removeEventListener('unhandledrejection', this.onUnhandledRejection);
  }

  private onWindowError = (event: ErrorEvent) => {
    // Resource load failures and cross-origin script errors carry no Error object: not ours to handle.
    if (event.error instanceof Error && !isIgnorableError(event.error)) this.setState({ hasError: true });
  };

  private onUnhandledRejection = (event: PromiseRejectionEvent) => {
    if (event.reason instanceof Error && !isIgnorableError(event.reason)) this.setState({ hasError: true });
  };

  override render() {
    return this.state.hasError ? <ErrorScreen /> : this.props.children;
  }
}
