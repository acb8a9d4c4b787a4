import { Fragment } from 'react';
import { cn } from '@/lib/utils';

/**
 * A file name cut into the pieces a line may break between: after each `_`, `-` or space, and before the extension.
 * `PXL_20251103_142233517.jpg` → `PXL_`, `20251103_`, `142233517`, `.jpg`.
 */
export function fileNameParts(name: string): string[] {
  return name.split(/(?<=[_\- ])|(?=\.[^.]+$)/).filter((part) => part !== '');
}

/**
 * A file name shown whole, however long: phones name photos `PXL_20251103_142233517.jpg` or
 * `IMG_20251103_142233_…_iphone_13_pro_max.HEIC`, one word as far as line breaking goes, which would otherwise
 * make the page wider than the screen. It wraps after the name's separators first, anywhere within a piece longer
 * than the line, and never counts as wider than its box.
 */
export function FileName({ name, className }: { name: string; className?: string }) {
  const parts = fileNameParts(name);
  return (
    <span className={cn('wrap-anywhere', className)}>
      {parts.map((part, index) => (
        // The pieces of one name never move: their place is their key.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
