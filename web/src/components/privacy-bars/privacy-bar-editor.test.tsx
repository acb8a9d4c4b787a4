import { useState, type ReactElement } from 'react';
import { fireEvent, render as renderAlone, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PrivacyBar } from '@/lib/types';
import { QueryWrapper } from '@/test/query-wrapper';
import { MAX_PRIVACY_BARS } from './geometry';
import { PrivacyBarEditor } from './privacy-bar-editor';

/** The editor asks for suggestions through the query client. */
const render = (ui: ReactElement) => renderAlone(ui, { wrapper: QueryWrapper });

/** jsdom has no PointerEvent; a MouseEvent with the pointer fields is enough for React. */
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  readonly pointerType: string;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
    this.pointerType = init.pointerType ?? 'mouse';
  }
}

let latest: PrivacyBar[] = [];

function Harness({ initial = [], disabled = false }: { initial?: PrivacyBar[]; disabled?: boolean }) {
  const [bars, setBars] = useState<PrivacyBar[]>(() => {
    latest = initial;
    return initial;
  });
  const change = (next: PrivacyBar[]) => {
    latest = next;
    setBars(next);
  };
  return <PrivacyBarEditor imageUrl="blob:photo" alt="Crack in a wall" bars={bars} onChange={change} disabled={disabled} />;
}

/** The image box: 400 × 200 px at (100, 50). */
function surface() {
  const element = screen.getByRole('group', { name: 'Privacy bars for Crack in a wall' });
  element.getBoundingClientRect = () =>
    ({ left: 100, top: 50, width: 400, height: 200, right: 500, bottom: 250, x: 100, y: 50, toJSON: () => ({}) }) as DOMRect;
  element.setPointerCapture = vi.fn();
  return element;
}

function drag(element: HTMLElement, from: [number, number], to: [number, number]) {
  fireEvent.pointerDown(element, { clientX: from[0], clientY: from[1], pointerId: 1, button: 0 });
  fireEvent.pointerMove(element, { clientX: to[0], clientY: to[1], pointerId: 1 });
  fireEvent.pointerUp(element, { clientX: to[0], clientY: to[1], pointerId: 1 });
}

beforeEach(() => {
  vi.stubGlobal('PointerEvent', TestPointerEvent);
  latest = [];
});

describe('PrivacyBarEditor', () => {
  it('draws a bar by dragging, in percent of the image, clamped to the 10 px minimum', () => {
    render(<Harness />);
    const element = surface();
    // 100 → 300 px of 400 = 0 → 50 %; 50 → 60 px of 200 = 0 → 5 %.
    drag(element, [100, 50], [300, 60]);
    expect(latest).toEqual([{ x: 0, y: 0, width: 50, height: 5 }]);
    expect(screen.getByRole('button', { name: 'Privacy bar 1 of 1' })).toBeInTheDocument();

    // Dragged backwards (bottom-right to top-left), 12 × 6 px: kept (3 % × 3 %) and grown to 10 px (2.5 % × 5 %).
    drag(element, [312, 156], [300, 150]);
    expect(latest[1]).toEqual({ x: 50, y: 50, width: 3, height: 5 });
  });

  it('moves a bar by dragging it, staying inside the image', () => {
    render(<Harness initial={[{ x: 10, y: 10, width: 20, height: 20 }]} />);
    const element = surface();
    const bar = screen.getByRole('button', { name: 'Privacy bar 1 of 1' });
    fireEvent.pointerDown(bar, { clientX: 180, clientY: 80, pointerId: 2, button: 0 }); // 20 %, 15 %
    fireEvent.pointerMove(element, { clientX: 220, clientY: 100, pointerId: 2 }); // +10 %, +10 %
    expect(latest).toEqual([{ x: 20, y: 20, width: 20, height: 20 }]);
    fireEvent.pointerMove(element, { clientX: 900, clientY: 900, pointerId: 2 });
    fireEvent.pointerUp(element, { clientX: 900, clientY: 900, pointerId: 2 });
    expect(latest).toEqual([{ x: 80, y: 80, width: 20, height: 20 }]);
  });

  it('shows the temporary bar only above 1 % and drops bars not larger than 2 % both ways', () => {
    render(<Harness />);
    const element = surface();
    fireEvent.pointerDown(element, { clientX: 200, clientY: 100, pointerId: 1, button: 0 });
    fireEvent.pointerMove(element, { clientX: 203, clientY: 101, pointerId: 1 }); // 0.75 % × 0.5 %
    expect(screen.queryByTestId('privacy-bar-draft')).not.toBeInTheDocument();
    fireEvent.pointerMove(element, { clientX: 207, clientY: 104, pointerId: 1 }); // 1.75 % × 2 %
    expect(screen.getByTestId('privacy-bar-draft')).toBeInTheDocument();
    fireEvent.pointerUp(element, { clientX: 207, clientY: 104, pointerId: 1 });
    expect(latest).toEqual([]);
    expect(screen.queryByTestId('privacy-bar-draft')).not.toBeInTheDocument();

    drag(element, [200, 100], [300, 104]); // wide but only 2 % tall
    expect(latest).toEqual([]);
  });

  it('is usable from the keyboard: add, move, resize and delete', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add bar' }));
    const bar = screen.getByRole('button', { name: 'Privacy bar 1 of 1' });
    expect(bar).toHaveFocus();
    expect(latest).toEqual([{ x: 35, y: 45, width: 30, height: 10 }]);

    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(latest).toEqual([{ x: 36, y: 46, width: 30, height: 10 }]);
    await user.keyboard('{Shift>}{ArrowRight}{ArrowUp}{/Shift}');
    expect(latest).toEqual([{ x: 36, y: 46, width: 31, height: 9 }]);

    await user.keyboard('{Delete}');
    expect(latest).toEqual([]);
    expect(screen.getByRole('button', { name: 'Add bar' })).toHaveFocus();
  });

  it('selects a bar on click and deletes it with the visible button, Backspace or the toolbar', async () => {
    const user = userEvent.setup();
    const bars = [
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 50, y: 50, width: 10, height: 10 },
      { x: 80, y: 80, width: 10, height: 10 },
    ];
    render(<Harness initial={bars} />);
    expect(screen.getByRole('button', { name: 'Delete bar' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Privacy bar 2 of 3' }));
    expect(screen.getByRole('button', { name: 'Privacy bar 2 of 3' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Delete privacy bar 2' }));
    expect(latest).toEqual([bars[0], bars[2]]);

    // Focus moved to the bar now in that place; Backspace removes it.
    expect(screen.getByRole('button', { name: 'Privacy bar 2 of 2' })).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(latest).toEqual([bars[0]]);

    await user.click(screen.getByRole('button', { name: 'Privacy bar 1 of 1' }));
    await user.click(screen.getByRole('button', { name: 'Delete bar' }));
    expect(latest).toEqual([]);
  });

  it('clears all bars', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 20, width: 10, height: 10 }]} />);
    expect(screen.getByText('2/20 bars')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(latest).toEqual([]);
    expect(screen.getByRole('button', { name: 'Clear all' })).toBeDisabled();
  });

  it(`stops at ${MAX_PRIVACY_BARS} bars`, () => {
    const full = Array.from({ length: MAX_PRIVACY_BARS }, (_, i) => ({ x: i, y: i, width: 5, height: 5 }));
    render(<Harness initial={full} />);
    expect(screen.getByRole('button', { name: 'Add bar' })).toBeDisabled();
    drag(surface(), [100, 50], [300, 150]);
    expect(latest).toHaveLength(MAX_PRIVACY_BARS);
    expect(screen.getByText(`You can add up to ${MAX_PRIVACY_BARS} privacy bars.`)).toBeInTheDocument();
  });

  it('does nothing while disabled', () => {
    render(<Harness initial={[{ x: 0, y: 0, width: 10, height: 10 }]} disabled />);
    drag(surface(), [100, 50], [300, 150]);
    expect(latest).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Add bar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Privacy bar 1 of 1' })).toBeDisabled();
  });

  it('shows a neutral placeholder without an image or when it fails to load', () => {
    const { rerender } = render(
      <PrivacyBarEditor imageUrl={null} alt="IMG_0001.heic" bars={[]} onChange={() => {}} />,
    );
    expect(screen.getByRole('img', { name: 'IMG_0001.heic' })).toHaveTextContent('Preview not available');
    expect(screen.queryByRole('button', { name: 'Add bar' })).not.toBeInTheDocument();

    rerender(<PrivacyBarEditor imageUrl="blob:broken" alt="Broken" bars={[]} onChange={() => {}} />);
    fireEvent.error(screen.getByRole('img', { name: 'Broken' }));
    expect(screen.getByText('Preview not available')).toBeInTheDocument();
  });
});
