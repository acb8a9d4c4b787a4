import { SignInButton } from '@/components/auth/sign-in-button';

export function CallToAction() {
  return (
    <section className="px-4 pb-16 sm:px-6 lg:px-8">
      <div className="mx-auto flex max-w-5xl flex-col items-center gap-4 rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground shadow-lg">
        <h2 className="text-3xl font-bold tracking-tight">Ready to find your first crack?</h2>
        <p className="max-w-xl">
          Join the community, share what you spot and help decide which cracks are the most impressive.
        </p>
        <SignInButton size="lg" variant="secondary" className="mt-2">
          Join Now
        </SignInButton>
      </div>
    </section>
  );
}
