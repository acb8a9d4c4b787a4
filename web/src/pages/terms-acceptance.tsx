import { TERMS, WEB } from '@snapcracks/http-contract';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PartyPopper } from 'lucide-react';
import { BrandLogo } from '@/components/brand-logo';
import { LegalSummaryAccordion } from '@/components/terms/legal-summary-accordion';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { getServerMessage, LOGOUT_URL } from '@/lib/api';
import { redirectTo } from '@/lib/browser';
import { toast } from '@/lib/toast';
import { useAcceptTermsMutation } from '@/queries/auth';

/** Pause between the success toast and leaving the page (SPEC §4). */
export const TERMS_ACCEPTED_REDIRECT_DELAY_MS = WEB.afterTermsRedirectMs;

function InlineLegalLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded-sm font-medium text-primary underline underline-offset-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </Link>
  );
}

export function TermsAcceptancePage() {
  const navigate = useNavigate();
  const [isChecked, setIsChecked] = useState(false);
  useDocumentTitle('Accept the terms');
  const acceptTerms = useAcceptTermsMutation({
    onAccepted: () => {
      toast({ title: 'Terms Accepted', description: 'Welcome to Snap Cracks! Your account setup is complete.' });
      setTimeout(() => navigate('/'), TERMS_ACCEPTED_REDIRECT_DELAY_MS);
    },
    errorToast: (error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to accept terms. Please try again.') }),
  });

  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-orange-50 via-background to-amber-50 dark:from-orange-950/20 dark:via-background dark:to-amber-950/10">
      <header className="mx-auto flex w-full max-w-3xl items-center justify-between px-4 py-4">
        <BrandLogo />
        <ThemeToggle />
      </header>
      <main id="main-content" className="mx-auto w-full max-w-3xl flex-1 px-4 pb-12">
        <Card>
          <CardHeader className="items-center text-center">
            <div className="mx-auto mb-2 flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
              <PartyPopper className="size-7" aria-hidden="true" />
            </div>
            <CardTitle as="h1" className="text-2xl sm:text-3xl">
              Welcome to Snap Cracks!
            </CardTitle>
            <CardDescription className="max-w-xl text-base">
              Before you start snapping, please review and accept our terms. They explain how your photos and data
              are handled and how we keep the community friendly.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-6">
            <LegalSummaryAccordion />
            <div className="flex flex-col gap-2 rounded-lg border bg-muted/40 p-4">
              <div className="flex items-start gap-3">
                <Checkbox
                  id="accept-terms"
                  className="mt-0.5"
                  checked={isChecked}
                  onCheckedChange={(checked) => setIsChecked(checked === true)}
                  aria-describedby={isChecked ? undefined : 'accept-terms-hint'}
                />
                <Label htmlFor="accept-terms" className="leading-relaxed">
                  I have read and agree to the <InlineLegalLink to="/legal#terms">Terms of Service</InlineLegalLink>,{' '}
                  <InlineLegalLink to="/legal#privacy">Privacy Policy</InlineLegalLink>, and{' '}
                  <InlineLegalLink to="/legal#community">Community Guidelines</InlineLegalLink>.
                </Label>
              </div>
              {!isChecked && (
                <p id="accept-terms-hint" className="pl-8 text-sm text-muted-foreground">
                  {TERMS.required}
                </p>
              )}
            </div>
          </CardContent>
          <CardFooter className="flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="outline" className="w-full sm:w-auto" onClick={() => redirectTo(LOGOUT_URL)}>
              Cancel
            </Button>
            <Button
              className="w-full sm:w-auto"
              disabled={!isChecked || acceptTerms.isPending}
              onClick={() => acceptTerms.mutate()}
            >
              {acceptTerms.isPending ? 'Processing...' : 'Accept and Continue'}
            </Button>
          </CardFooter>
        </Card>
      </main>
    </div>
  );
}
