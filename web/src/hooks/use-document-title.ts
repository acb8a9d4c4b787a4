import { useEffect } from 'react';

/** Names the browser tab after the page, which screen readers also announce on navigation. */
export function useDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · Snap Cracks` : 'Snap Cracks';
  }, [pageTitle]);
}
