import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BRAND_ICON_URL } from '@/lib/brand';
import { cn } from '@/lib/utils';

/** The brand mark and name, linking home. The image is hidden if it fails to load; the name stays. */
export function BrandLogo({ className }: { className?: string }) {
  const [iconFailed, setIconFailed] = useState(false);
  return (
    <Link
      to="/"
      className={cn(
        'flex min-h-11 items-center gap-2 rounded-md text-lg font-bold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {!iconFailed && (
        <img
          src={BRAND_ICON_URL}
          alt="Snap Cracks"
          width={32}
          height={32}
          className="size-8"
          onError={() => setIconFailed(true)}
        />
      )}
      <span aria-hidden={!iconFailed}>Snap Cracks</span>
    </Link>
  );
}
