import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ImageOff, Loader2, Plus, ScanFace, Trash2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatCountOf } from '@/lib/format';
import type { PrivacyBar } from '@/lib/types';
import { cn } from '@/lib/utils';
import { suggestionFailureMessage } from './face-suggestions';
import {
  KEYBOARD_LARGE_STEP_PERCENT,
  KEYBOARD_STEP_PERCENT,
  MAX_PRIVACY_BARS,
  addBar,
  centeredBar,
  clampBar,
  finishDrag,
  isArrowKey,
  minSizeForImage,
  nudgeBar,
  pointToPercent,
  rectFromPoints,
  shouldShowPreview,
  type MinSize,
  type Point,
} from './geometry';

export interface PrivacyBarEditorProps {
  /** The image to draw on; null shows a neutral placeholder (e.g. a HEIC file the browser cannot show). */
  imageUrl: string | null;
  alt: string;
  bars: PrivacyBar[];
  onChange: (bars: PrivacyBar[]) => void;
  disabled?: boolean;
  /**
   * Finds bars over the faces in the image; with it the editor offers "Suggest bars over faces", and the bars
   * it answers are added like drawn ones (to keep, move or remove).
   */
  suggestFaces?: () => Promise<PrivacyBar[]>;
}

type Drag =
  | { mode: 'draw'; pointerId: number; start: Point; current: Point }
  | { mode: 'move'; pointerId: number; start: Point; index: number; origin: PrivacyBar };

const percent = (value: number) => `${value}%`;

function barStyle(bar: PrivacyBar) {
  return { left: percent(bar.x), top: percent(bar.y), width: percent(bar.width), height: percent(bar.height) };
}

/**
 * Draws black privacy bars over a photo (SPEC §5). Drag on the image to draw a bar (mouse, pen or touch);
 * click or Tab to a bar to select it; arrow keys move the selected bar, Shift+arrows resize it, Delete or
 * Backspace removes it. "Add bar" places a bar in the middle for keyboard users. Bars are percentages of the image.
 */
export function PrivacyBarEditor({ imageUrl, alt, bars, onChange, disabled = false, suggestFaces }: PrivacyBarEditorProps) {
  const instructionsId = useId();
  const surfaceRef = useRef<HTMLDivElement>(null);
  const barRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const suggestion = useMutation({
    mutationFn: (suggest: () => Promise<PrivacyBar[]>) => suggest(),
    // Offline, the request fails at once and says so, rather than waiting unseen for the connection.
    networkMode: 'always',
    meta: { errorToast: (error) => ({ title: 'Could Not Suggest Bars', description: suggestionFailureMessage(error) }) },
  });
  const suggesting = suggestion.isPending;
  // What the last suggestion found, for the image it was about (a new photo starts without a note).
  const [suggestionNote, setSuggestionNote] = useState<{ imageUrl: string | null; text: string } | null>(null);
  // The bars as last rendered: a suggestion answers after a wait, during which the member may have drawn.
  const latestBars = useRef(bars);
  useEffect(() => {
    latestBars.current = bars;
  }, [bars]);
  // Which control should take focus after the next render (bars re-render as buttons, so focus moves after it).
  const focusRequest = useRef<number | 'add' | null>(null);

  const selectedIndex = selected !== null && selected < bars.length ? selected : null;
  const isFull = bars.length >= MAX_PRIVACY_BARS;
  const hasImage = imageUrl !== null && failedUrl !== imageUrl;
  const canEdit = hasImage && !disabled;

  // Focus moves after React has rendered the bar it targets.
  useEffect(() => {
    const request = focusRequest.current;
    if (request === null) return;
    focusRequest.current = null;
    if (request === 'add') addButtonRef.current?.focus();
    else barRefs.current[request]?.focus();
  });

  const minSize = (): MinSize | undefined => {
    const rect = surfaceRef.current?.getBoundingClientRect();
    return rect && rect.width > 0 && rect.height > 0 ? minSizeForImage(rect.width, rect.height) : undefined;
  };

  const pointerPoint = (event: PointerEvent): Point | null => {
    const rect = surfaceRef.current?.getBoundingClientRect();
    return rect ? pointToPercent(event.clientX, event.clientY, rect) : null;
  };

  const capture = (event: PointerEvent) => {
    try {
      surfaceRef.current?.setPointerCapture(event.pointerId);
    } catch {
      // The pointer may already be gone (e.g. a cancelled touch); drawing still works without capture.
    }
  };

  const isPrimaryButton = (event: PointerEvent) => event.pointerType !== 'mouse' || event.button === 0;

  const handleSurfacePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!canEdit || !isPrimaryButton(event) || drag) return;
    setSelected(null);
    if (isFull) {
      setAnnouncement(`You can add up to ${MAX_PRIVACY_BARS} privacy bars.`);
      return;
    }
    const point = pointerPoint(event);
    if (!point) return;
    event.preventDefault();
    capture(event);
    setDrag({ mode: 'draw', pointerId: event.pointerId, start: point, current: point });
  };

  const handleBarPointerDown = (index: number, event: PointerEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    if (!canEdit || !isPrimaryButton(event) || drag) return;
    const point = pointerPoint(event);
    const origin = bars[index];
    if (!point || !origin) return;
    setSelected(index);
    capture(event);
    setDrag({ mode: 'move', pointerId: event.pointerId, start: point, index, origin });
  };

  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const point = pointerPoint(event);
    if (!point) return;
    if (drag.mode === 'draw') {
      setDrag({ ...drag, current: point });
      return;
    }
    const moved = clampBar(
      { ...drag.origin, x: drag.origin.x + point.x - drag.start.x, y: drag.origin.y + point.y - drag.start.y },
      minSize(),
    );
    onChange(bars.map((bar, i) => (i === drag.index ? moved : bar)));
  };

  const handlePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    setDrag(null);
    if (drag.mode !== 'draw') return;
    const end = pointerPoint(event) ?? drag.current;
    const bar = finishDrag(drag.start, end, minSize());
    if (!bar) return;
    const next = addBar(bars, bar);
    if (next === bars) return;
    onChange(next);
    setSelected(next.length - 1);
    setAnnouncement(`Privacy bar ${next.length} added.`);
  };

  const handlePointerCancel = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (drag.mode === 'move') onChange(bars.map((bar, i) => (i === drag.index ? drag.origin : bar)));
    setDrag(null);
  };

  const removeBar = (index: number) => {
    const next = bars.filter((_, i) => i !== index);
    onChange(next);
    setAnnouncement(`Privacy bar ${index + 1} removed.`);
    if (next.length === 0) {
      setSelected(null);
      focusRequest.current = 'add';
    } else {
      const nextIndex = Math.min(index, next.length - 1);
      setSelected(nextIndex);
      focusRequest.current = nextIndex;
    }
  };

  const addCenteredBar = () => {
    const next = addBar(bars, centeredBar(minSize()));
    if (next === bars) return;
    onChange(next);
    setSelected(next.length - 1);
    focusRequest.current = next.length - 1;
    setAnnouncement(`Privacy bar ${next.length} added in the middle of the photo.`);
  };

  const runSuggestions = async () => {
    if (!suggestFaces || suggesting || !canEdit) return;
    setSuggestionNote(null);
    let found: PrivacyBar[];
    try {
      found = await suggestion.mutateAsync(suggestFaces);
    } catch {
      // Told by the query client (lib/query-client.ts): the toast, or a sign-in after a 401.
      return;
    }
    const current = latestBars.current;
    const added = found.slice(0, MAX_PRIVACY_BARS - current.length).map((bar) => clampBar(bar, minSize()));
    const text =
      found.length === 0
        ? 'No faces found. Draw bars yourself over anything private.'
        : `${formatCountOf(added.length, 'bar')} suggested over faces. Check them: move, resize or delete any.`;
    setSuggestionNote({ imageUrl, text });
    setAnnouncement(text);
    if (added.length > 0) onChange([...current, ...added]);
  };

  const clearAll = () => {
    onChange([]);
    setSelected(null);
    setAnnouncement('All privacy bars removed.');
  };

  const handleBarKeyDown = (index: number, event: KeyboardEvent<HTMLButtonElement>) => {
    if (!canEdit) return;
    const bar = bars[index];
    if (!bar) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      removeBar(index);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setSelected(null);
      event.currentTarget.blur();
    } else if (isArrowKey(event.key)) {
      event.preventDefault();
      const step = event.altKey ? KEYBOARD_LARGE_STEP_PERCENT : KEYBOARD_STEP_PERCENT;
      const moved = nudgeBar(bar, event.key, { resize: event.shiftKey, step, minSize: minSize() });
      setSelected(index);
      onChange(bars.map((item, i) => (i === index ? moved : item)));
    }
  };

  const draftRect = drag?.mode === 'draw' ? rectFromPoints(drag.start, drag.current) : null;
  const selectedBar = selectedIndex !== null ? bars[selectedIndex] : undefined;

  if (!hasImage) {
    return (
      <div
        role="img"
        aria-label={alt}
        className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-muted/60 p-6 text-center text-muted-foreground"
      >
        <ImageOff className="size-10" aria-hidden="true" />
        <p className="text-sm font-medium">Preview not available</p>
        <p className="max-w-full truncate text-xs">{alt}</p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-center rounded-lg bg-muted/60 p-2">
        <div
          ref={surfaceRef}
          role="group"
          aria-label={`Privacy bars for ${alt}`}
          aria-describedby={instructionsId}
          className={cn(
            'relative inline-block max-w-full select-none',
            canEdit && 'cursor-crosshair touch-none',
            disabled && 'opacity-70',
          )}
          onPointerDown={handleSurfacePointerDown}
          onPointerMove={handlePointerMove}
          onPointerUp={handlePointerUp}
          onPointerCancel={handlePointerCancel}
        >
          <img
            src={imageUrl}
            alt={alt}
            draggable={false}
            onError={() => setFailedUrl(imageUrl)}
            className="pointer-events-none block max-h-[70vh] w-auto max-w-full rounded-md"
          />
          {bars.map((bar, index) => {
            const isSelected = index === selectedIndex;
            return (
              <button
                key={index}
                ref={(element) => {
                  barRefs.current[index] = element;
                }}
                type="button"
                disabled={!canEdit}
                aria-label={`Privacy bar ${index + 1} of ${bars.length}`}
                aria-pressed={isSelected}
                aria-describedby={instructionsId}
                style={barStyle(bar)}
                className={cn(
                  'absolute bg-black outline-none',
                  canEdit && 'cursor-move',
                  isSelected
                    ? 'ring-2 ring-primary ring-offset-2 ring-offset-background'
                    : 'ring-1 ring-white/40 focus-visible:ring-2 focus-visible:ring-primary',
                )}
                onPointerDown={(event) => handleBarPointerDown(index, event)}
                onFocus={() => setSelected(index)}
                onClick={() => setSelected(index)}
                onKeyDown={(event) => handleBarKeyDown(index, event)}
              />
            );
          })}
          {selectedBar && selectedIndex !== null && canEdit && !drag && (
            <button
              type="button"
              aria-label={`Delete privacy bar ${selectedIndex + 1}`}
              tabIndex={-1}
              className="absolute z-10 flex size-7 after:absolute after:-inset-2 after:content-[''] -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-destructive text-destructive-foreground shadow-md ring-2 ring-background outline-none hover:bg-destructive/90 focus-visible:ring-ring"
              style={{ left: percent(selectedBar.x + selectedBar.width), top: percent(selectedBar.y) }}
              onPointerDown={(event) => event.stopPropagation()}
              onClick={() => removeBar(selectedIndex)}
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
          {draftRect && shouldShowPreview(draftRect) && (
            <div
              aria-hidden="true"
              data-testid="privacy-bar-draft"
              style={barStyle(draftRect)}
              className="pointer-events-none absolute border-2 border-dashed border-white bg-black/70"
            />
          )}
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        {suggestFaces && (
          <Button
            variant="secondary"
            size="sm"
            // While it runs the button stays focusable (aria-disabled, not disabled), so keyboard focus stays put.
            disabled={!canEdit || isFull}
            aria-disabled={suggesting || undefined}
            aria-busy={suggesting || undefined}
            title="Sends a smaller copy of this photo to find faces. The copy is not kept."
            onClick={() => void runSuggestions()}
          >
            {suggesting ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ScanFace aria-hidden="true" />}
            {suggesting ? 'Finding faces...' : 'Suggest bars over faces'}
          </Button>
        )}
        <Button
          ref={addButtonRef}
          variant="outline"
          size="sm"
          disabled={!canEdit || isFull}
          onClick={addCenteredBar}
        >
          <Plus aria-hidden="true" />
          Add bar
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!canEdit || selectedIndex === null}
          onClick={() => selectedIndex !== null && removeBar(selectedIndex)}
        >
          <Trash2 aria-hidden="true" />
          Delete bar
        </Button>
        <Button variant="ghost" size="sm" disabled={!canEdit || bars.length === 0} onClick={clearAll}>
          Clear all
        </Button>
        <span className="ml-auto text-xs text-muted-foreground tabular-nums">
          {bars.length}/{MAX_PRIVACY_BARS} bars
        </span>
      </div>
      {suggestionNote && suggestionNote.imageUrl === imageUrl && (
        <p className="text-sm text-muted-foreground" data-testid="face-suggestion-note">
          {suggestionNote.text}
        </p>
      )}
      <p id={instructionsId} className="text-xs text-muted-foreground">
        Drag on the photo to cover faces, number plates or other private details. Select a bar with a click or Tab;
        arrow keys move it, Shift + arrow keys resize it, and Delete removes it.
      </p>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
