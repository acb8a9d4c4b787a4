import { WEB } from '@snapcracks/http-contract';
import { useEffect, useState, type CSSProperties, type SyntheticEvent } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { RetryingImage } from './retrying-image';

/** SPEC §9: canvas quality. */
export const PROTECTED_IMAGE_QUALITY = WEB.canvasQuality;
export const WATERMARK_TEXT = '© Snap Cracks';
/** Faint: legible on a plain wall when looked for, never in the way of the crack. */
const WATERMARK_ALPHA = 0.5;

function canvasToBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, PROTECTED_IMAGE_QUALITY));
}

/**
 * The image drawn onto a canvas with one faint copyright mark in its bottom-right corner, encoded at quality
 * 0.9: WebP where the browser can encode it, else JPEG. Rejects when the canvas cannot be used.
 */
export async function renderWatermarked(image: HTMLImageElement): Promise<Blob> {
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  if (!width || !height) throw new Error('The image has no size');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  context.drawImage(image, 0, 0, width, height);

  // About 2.5 % of the shorter side: ~24 px on a 960 px image, whatever size the viewer shows it at.
  const fontSize = Math.max(11, Math.round(Math.min(width, height) * 0.025));
  const margin = Math.round(fontSize * 0.8);
  context.save();
  context.globalAlpha = WATERMARK_ALPHA;
  context.font = `600 ${fontSize}px system-ui, sans-serif`;
  context.textAlign = 'right';
  context.textBaseline = 'bottom';
  // White with a soft dark halo reads on light and dark surfaces alike.
  context.shadowColor = 'rgba(0, 0, 0, 0.6)';
  context.shadowBlur = Math.max(2, fontSize / 5);
  context.fillStyle = '#ffffff';
  context.fillText(WATERMARK_TEXT, width - margin, height - margin);
  context.restore();

  const webp = await canvasToBlob(canvas, 'image/webp');
  // Browsers that cannot encode WebP answer PNG, which is far larger than a photo needs.
  const blob = webp?.type === 'image/webp' ? webp : await canvasToBlob(canvas, 'image/jpeg');
  if (!blob) throw new Error('The canvas could not be encoded');
  return blob;
}

type ViewState = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

function isSaveOrInspectShortcut(event: KeyboardEvent): boolean {
  if (event.key === 'F12') return true;
  const key = event.key.toLowerCase();
  const modifier = event.ctrlKey || event.metaKey;
  return (modifier && !event.shiftKey && key === 's') || (modifier && event.shiftKey && key === 'i');
}

function clearClipboard(): void {
  try {
    void navigator.clipboard?.writeText('').catch(() => {});
  } catch {
    // No clipboard access (insecure context, no focus, permission): nothing to clear.
  }
}

/**
 * While mounted: Ctrl/Cmd+S, F12 and Ctrl/Cmd+Shift+I do nothing, and the clipboard is emptied whenever
 * the window regains focus (SPEC §6 "Other").
 */
export function useImageProtection(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSaveOrInspectShortcut(event)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('focus', clearClipboard);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('focus', clearClipboard);
    };
  }, []);
}

const preventDefault = (event: SyntheticEvent) => event.preventDefault();

export interface ProtectedImageProps {
  src: string;
  alt: string;
  /** The photo's pixel size, for the box's aspect ratio while it loads; 0 when unknown. */
  width?: number;
  height?: number;
  /**
   * The box is sized by `className` (a viewer's fixed frame) and the photo contained in it, so photos of any shape
   * take the same place; otherwise the box follows the photo's aspect, up to 65 % of the viewport's height.
   */
  fill?: boolean;
  className?: string;
}

/**
 * The protected image view of SPEC §4: the photo re-rendered with a watermark and shown from a blob URL
 * (released on unmount), falling back to the original URL when anything fails. Right-click and dragging
 * are refused on it, and the save and inspect shortcuts while it is shown.
 */
export function ProtectedImage(props: ProtectedImageProps) {
  return <ProtectedImageView key={props.src} {...props} />;
}

function ProtectedImageView({ src, alt, width = 0, height = 0, fill = false, className }: ProtectedImageProps) {
  const [view, setView] = useState<ViewState>({ status: 'loading' });
  useImageProtection();

  useEffect(() => {
    let cancelled = false;
    let objectUrl: string | null = null;
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => {
      renderWatermarked(image)
        .then((blob) => {
          if (cancelled) return;
          objectUrl = URL.createObjectURL(blob);
          setView({ status: 'ready', url: objectUrl });
        })
        .catch(() => {
          if (!cancelled) setView({ status: 'failed' });
        });
    };
    image.onerror = () => {
      if (!cancelled) setView({ status: 'failed' });
    };
    image.src = src;
    return () => {
      cancelled = true;
      image.onload = null;
      image.onerror = null;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src]);

  const hasSize = width > 0 && height > 0;
  const box: CSSProperties | undefined = hasSize && !fill ? { aspectRatio: `${width} / ${height}` } : undefined;
  const imageClassName = fill
    ? 'block size-full select-none object-contain'
    : 'mx-auto block max-h-[65vh] w-auto max-w-full select-none object-contain';

  return (
    <div
      className={cn('relative flex justify-center overflow-hidden rounded-lg bg-muted', className)}
      onContextMenu={preventDefault}
      onDragStart={preventDefault}
      data-protected-image={view.status}
    >
      {view.status === 'loading' ? (
        <>
          <Skeleton className={fill ? 'size-full rounded-none' : 'max-h-[65vh] w-full rounded-none'} style={fill ? undefined : (box ?? { aspectRatio: '4 / 3' })} />
          <span className="sr-only" role="status">
            Loading photo…
          </span>
        </>
      ) : view.status === 'ready' ? (
        <img
          src={view.url}
          alt={alt}
          width={hasSize ? width : undefined}
          height={hasSize ? height : undefined}
          draggable={false}
          className={imageClassName}
          style={box}
        />
      ) : (
        <RetryingImage
          src={src}
          alt={alt}
          width={hasSize ? width : undefined}
          height={hasSize ? height : undefined}
          draggable={false}
          decoding="async"
          className={imageClassName}
          placeholderClassName={fill ? 'size-full' : 'aspect-[4/3] w-full max-h-[65vh]'}
          style={box}
        />
      )}
    </div>
  );
}
