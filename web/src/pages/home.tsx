import { Link } from 'react-router-dom';
import { Camera, LayoutDashboard } from 'lucide-react';
import { GallerySection } from '@/components/gallery/gallery-section';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { HEADER_IMAGE_URL } from '@/lib/brand';
import { getDisplayName } from '@/lib/user';

/** The signed-in home (SPEC §2 "Gallery home"): a greeting, Snap a Crack and My Dashboard, then the gallery. */
export function HomePage() {
  const { user } = useAuth();
  useDocumentTitle('Gallery');
  return (
    <>
      <section className="border-b bg-gradient-to-br from-orange-50 via-background to-amber-50 dark:from-orange-950/30 dark:via-background dark:to-amber-950/20">
        <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-8 px-4 py-12 sm:px-6 md:grid-cols-2 lg:px-8">
          <div className="flex min-w-0 flex-col gap-4">
            {/* A long name without spaces breaks rather than widening the page. */}
            <h1 className="text-3xl font-extrabold tracking-tight wrap-anywhere sm:text-4xl">
              Welcome back, {getDisplayName(user, 'Snapper')}
            </h1>
            <p className="text-lg text-muted-foreground">
              Discover the latest cracks from the community, rate your favourites and share your own finds.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button asChild size="lg">
                <Link to="/upload">
                  <Camera aria-hidden="true" />
                  Snap a Crack
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/dashboard">
                  <LayoutDashboard aria-hidden="true" />
                  My Dashboard
                </Link>
              </Button>
            </div>
          </div>
          <img
            src={HEADER_IMAGE_URL}
            alt=""
            width={1200}
            height={400}
            className="hidden aspect-[3/1] h-auto w-full rounded-xl border object-cover shadow-sm md:block dark:brightness-75"
          />
        </div>
      </section>
      {/* On a phone the hero has no image and the first card is on screen: the largest paint. */}
      <GallerySection isSignedIn={user !== null} leadsPage />
    </>
  );
}
