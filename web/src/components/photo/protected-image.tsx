import { useEffect, useState, type CSSProperties, type SyntheticEvent } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { RetryingImage } from './retrying-image';

/** SPEC §9: canvas quality. */
export const PROTECTED_IMAGE_QUALITY = 0.9;
export const WATERMARK_TEXT = '© Snap Cracks';
const WATERMARK_ALPHA = 0.14;

function canvasToBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, PROTECTED_IMAGE_QUALITY));
}

/**
 * The image drawn onto a canvas with a faint, repeated diagonal copyright line, encoded at quality 0.9:
 * WebP where the browser can encode it, else JPEG. Rejects when the canvas cannot be used.
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

  const fontSize = Math.max(14, Math.round(Math.min(width, height) * 0.045));
  context.save();
  context.globalAlpha = WATERMARK_ALPHA;
  context.fillStyle = '#ffffff';
  context.strokeStyle = '#000000';
  context.lineWidth = Math.max(1, fontSize / 14);
  context.font = `600 ${fontSize}px system-ui, sans-serif`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.translate(width / 2, height / 2);
  context.rotate(-Math.PI / 6);
  const diagonal = Math.hypot(width, height);
  const stepX = fontSize * 12;
  const stepY = fontSize * 5;
  for (let y = -diagonal / 2, row = 0; y <= diagonal / 2; y += stepY, row += 1) {
    for (let x = -diagonal / 2 + (row % 2) * (stepX / 2); x <= diagonal / 2; x += stepX) {
      context.strokeText(WATERMARK_TEXT, x, y);
      context.fillText(WATERMARK_TEXT, x, y);
    }
  }
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

function ProtectedImageView({ src, alt, width = 0, height = 0, className }: ProtectedImageProps) {
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
  const box: CSSProperties | undefined = hasSize ? { aspectRatio: `${width} / ${height}` } : undefined;
  const imageClassName = 'mx-auto block max-h-[65vh] w-auto max-w-full select-none object-contain';

  return (
    <div
      className={cn('relative flex justify-center overflow-hidden rounded-lg bg-muted', className)}
      onContextMenu={preventDefault}
      onDragStart={preventDefault}
      data-protected-image={view.status}
    >
      {view.status === 'loading' ? (
        <>
          <Skeleton className="max-h-[65vh] w-full rounded-none" style={box ?? { aspectRatio: '4 / 3' }} />
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
          placeholderClassName="aspect-[4/3] w-full max-h-[65vh]"
          style={box}
        />
      )}
    </div>
  );
}
