import { WEB } from '@snapcracks/http-contract';
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import { ImageOff } from 'lucide-react';
import { cn } from '@/lib/utils';

/** SPEC §4 / §9: up to 3 retries, the n-th after n × 1000 ms. */
export const IMAGE_MAX_RETRIES = WEB.imageRetries;
export const IMAGE_RETRY_DELAY_MS = WEB.imageRetryDelayMs;

/** `url` with `retry={attempt}&time={time}` added (after `&` when it already has a query). */
export function withRetryParams(url: string, attempt: number, time: number): string {
  if (attempt <= 0) return url;
  const [path, hash] = url.split('#', 2) as [string, string | undefined];
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}retry=${attempt}&time=${time}${hash === undefined ? '' : `#${hash}`}`;
}

/** One candidate of a responsive image: its URL and its width in pixels (`480w`). */
export interface ImageSource {
  url: string;
  width: number;
}

export type RetryingImageProps = Omit<ComponentProps<'img'>, 'src' | 'srcSet' | 'onError'> & {
  src: string;
  /** Responsive candidates; each is retried like `src`. */
  sources?: ImageSource[];
  /**
   * A media query the candidates are limited to (`<picture><source media>`); elsewhere only `src` is
   * used. Without it the candidates apply everywhere.
   */
  sourcesMedia?: string;
  /** Classes of the Image Error placeholder, which takes the image's place (size it like the image). */
  placeholderClassName?: string;
};

/**
 * An <img> that retries a failed load (1 s, 2 s, 3 s later, with `retry` and `time` query parameters
 * that get past any cached failure) and then shows an Image Error placeholder.
 */
export function RetryingImage(props: RetryingImageProps) {
  // A new address starts over, with a fresh count.
  const key = [props.src, ...(props.sources ?? []).map((source) => source.url)].join(' ');
  return <RetryingImageInner key={key} {...props} />;
}

function RetryingImageInner({
  src,
  sources,
  sourcesMedia,
  alt = '',
  className,
  placeholderClassName,
  sizes,
  ...imgProps
}: RetryingImageProps) {
  const [retry, setRetry] = useState({ attempt: 0, time: 0 });
  const [waiting, setWaiting] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  if (failed) {
    return (
      <div
        role="img"
        aria-label={alt ? `${alt} (Image Error)` : 'Image Error'}
        className={cn(
          'flex flex-col items-center justify-center gap-2 bg-muted p-4 text-center text-sm text-muted-foreground',
          className,
          placeholderClassName,
        )}
      >
        <ImageOff className="size-8" aria-hidden="true" />
        <span aria-hidden="true">Image Error</span>
      </div>
    );
  }

  const handleError = () => {
    const next = retry.attempt + 1;
    if (next > IMAGE_MAX_RETRIES) {
      setFailed(true);
      return;
    }
    setWaiting(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setRetry({ attempt: next, time: Date.now() });
      setWaiting(false);
    }, IMAGE_RETRY_DELAY_MS * next);
  };

  const srcSet = sources?.length
    ? sources.map((source) => `${withRetryParams(source.url, retry.attempt, retry.time)} ${source.width}w`).join(', ')
    : undefined;

  const image = (
    <img
      {...imgProps}
      alt={alt}
      srcSet={sourcesMedia ? undefined : srcSet}
      sizes={sourcesMedia ? undefined : sizes}
      src={withRetryParams(src, retry.attempt, retry.time)}
      onError={handleError}
      data-retry={retry.attempt || undefined}
      // A broken-image icon would flash between attempts; the box keeps its size meanwhile.
      className={cn(className, waiting && 'opacity-0')}
    />
  );
  if (!sourcesMedia || !srcSet) return image;
  // `contents`: the <picture> adds no box, so the image sizes against the same parent as without it.
  return (
    <picture className="contents">
      <source media={sourcesMedia} srcSet={srcSet} sizes={sizes} />
      {image}
    </picture>
  );
}
