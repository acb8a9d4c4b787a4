import { GallerySection } from '@/components/gallery/gallery-section';
import { CallToAction } from '@/components/landing/call-to-action';
import { FeatureSection } from '@/components/landing/feature-section';
import { LandingHeader } from '@/components/landing/landing-header';
import { LandingHero } from '@/components/landing/landing-hero';
import { Footer } from '@/components/layout/footer';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * The signed-out home: marketing for visitors and the public gallery (SPEC §2: "/ (gallery without
 * navbar)"), with its own header instead of the app navbar.
 */
export function LandingPage() {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col">
      <LandingHeader />
      <main id="main-content" className="flex-1">
        <LandingHero />
        <FeatureSection />
        <GallerySection isSignedIn={false} />
        <CallToAction />
      </main>
      <Footer />
    </div>
  );
}
