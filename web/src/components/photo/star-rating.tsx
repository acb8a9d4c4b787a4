import { useRef, useState, type KeyboardEvent } from 'react';
import { Star } from 'lucide-react';
import { formatCountOf } from '@/lib/format';
import { cn } from '@/lib/utils';

/** SPEC §9: the star scale. */
export const STAR_SCALE = 5;
const STARS = Array.from({ length: STAR_SCALE }, (_, index) => index + 1);

export function starLabel(rating: number): string {
  return formatCountOf(rating, 'star');
}

export interface StarRatingProps {
  /** The selected rating (1–5), or null for none. */
  value: number | null;
  onChange?: (rating: number) => void;
  /** Shows the value without letting it change (still focusable, so it can be read). */
  readOnly?: boolean;
  /** Refuses input, e.g. while a vote is pending; focus stays where it is. */
  disabled?: boolean;
  /** The group's accessible name. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const SIZES = { sm: 'size-4', md: 'size-6', lg: 'size-8' } as const;
/** Around each star: the large (voting) stars are 44 px targets on phones. */
const PADDINGS = { sm: 'p-0.5', md: 'p-0.5', lg: 'p-1.5 sm:p-0.5' } as const;

/**
 * A 5-star rating as a radio group. Arrow keys (and Home/End) move between stars, Enter or Space picks
 * the focused one, and the digits 1–5 pick directly. Arrows only move: picking casts a vote, so browsing
 * the stars must not.
 */
export function StarRating({
  value,
  onChange,
  readOnly = false,
  disabled = false,
  label = 'Rating',
  size = 'md',
  className,
}: StarRatingProps) {
  const [hovered, setHovered] = useState<number | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const starRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const interactive = !readOnly && !disabled;
  const selected = value !== null && value >= 1 && value <= STAR_SCALE ? Math.round(value) : null;
  // Roving tab stop: the star being browsed, else the selected one, else the first.
  const tabStop = focused ?? selected ?? 1;
  const shown = (interactive ? hovered : null) ?? selected ?? 0;

  const select = (rating: number) => {
    if (interactive && onChange) onChange(rating);
  };

  const moveTo = (rating: number) => {
    setFocused(rating);
    starRefs.current[rating - 1]?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, rating: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowUp':
        event.preventDefault();
        moveTo(rating === STAR_SCALE ? 1 : rating + 1);
        return;
      case 'ArrowLeft':
      case 'ArrowDown':
        event.preventDefault();
        moveTo(rating === 1 ? STAR_SCALE : rating - 1);
        return;
      case 'Home':
        event.preventDefault();
        moveTo(1);
        return;
      case 'End':
        event.preventDefault();
        moveTo(STAR_SCALE);
        return;
      default: {
        const digit = Number(event.key);
        if (Number.isInteger(digit) && digit >= 1 && digit <= STAR_SCALE) {
          event.preventDefault();
          moveTo(digit);
          select(digit);
        }
      }
    }
  };

  return (
    <div
      role="radiogroup"
      aria-label={label}
      aria-readonly={readOnly || undefined}
      aria-disabled={disabled || undefined}
      className={cn('inline-flex items-center gap-0.5', className)}
      onMouseLeave={() => setHovered(null)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(null);
      }}
    >
      {STARS.map((rating) => {
        const filled = rating <= shown;
        return (
          <button
            key={rating}
            ref={(element) => {
              starRefs.current[rating - 1] = element;
            }}
            type="button"
            role="radio"
            aria-checked={selected === rating}
            aria-label={starLabel(rating)}
            // aria-disabled, not disabled: a disabled button drops the keyboard focus mid-vote.
            aria-disabled={disabled || undefined}
            tabIndex={rating === tabStop ? 0 : -1}
            onClick={() => select(rating)}
            onKeyDown={(event) => handleKeyDown(event, rating)}
            onFocus={() => setFocused(rating)}
            onMouseEnter={() => setHovered(rating)}
            className={cn(
              'rounded-sm outline-none transition-transform',
              PADDINGS[size],
              'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background',
              interactive ? 'cursor-pointer hover:scale-110' : 'cursor-default',
              disabled && 'opacity-60',
            )}
          >
            <Star
              aria-hidden="true"
              className={cn(
                SIZES[size],
                'transition-colors',
                filled ? 'fill-amber-400 text-amber-500 dark:text-amber-400' : 'fill-transparent text-muted-foreground/60',
              )}
            />
          </button>
        );
      })}
    </div>
  );
}
