import type { ReactNode } from 'react';
import { LiveConnectionProvider } from '@/components/notifications/live-connection-provider';
import { Footer } from './footer';
import { Navbar } from './navbar';

/**
 * The page frame of every screen except the landing page and the terms-acceptance screen; every screen of a member who
 * accepted the terms is one of these, so the frame holds the tab's live connection (notifications, admin updates).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <LiveConnectionProvider>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <Navbar />
        {/* At least a screen tall below the navbar (h-16 and its border), so the footer starts below the fold: a page that
            loads shorter than its placeholder never pulls the footer up into view, nor makes the scrollbar come and go
            (which moved everything sideways). */}
        <main id="main-content" tabIndex={-1} className="flex min-h-[calc(100dvh-4rem-1px)] flex-1 flex-col outline-none">
          {children}
        </main>
        <Footer />
      </div>
    </LiveConnectionProvider>
  );
}
