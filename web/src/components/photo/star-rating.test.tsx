import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StarRating } from './star-rating';

function renderStars(props: Partial<Parameters<typeof StarRating>[0]> = {}) {
  const onChange = vi.fn();
  render(<StarRating value={null} onChange={onChange} label="Your rating" {...props} />);
  return { onChange, group: screen.getByRole('radiogroup', { name: 'Your rating' }), stars: screen.getAllByRole('radio') };
}

describe('StarRating', () => {
  it('is a radio group of five named stars with the value checked', () => {
    const { stars } = renderStars({ value: 3 });
    expect(stars.map((star) => star.getAttribute('aria-label'))).toEqual(['1 star', '2 stars', '3 stars', '4 stars', '5 stars']);
    expect(screen.getByRole('radio', { name: '3 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(stars.filter((star) => star.getAttribute('aria-checked') === 'true')).toHaveLength(1);
    // One tab stop, on the selected star.
    expect(stars.map((star) => star.tabIndex)).toEqual([-1, -1, 0, -1, -1]);
  });

  it('puts the tab stop on the first star when nothing is selected', async () => {
    const { stars } = renderStars();
    await userEvent.tab();
    expect(stars[0]).toHaveFocus();
  });

  it('moves with the arrow keys (wrapping), Home and End, without selecting', async () => {
    const { stars, onChange } = renderStars({ value: 2 });
    await userEvent.tab();
    expect(stars[1]).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(stars[2]).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(stars[3]).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}{ArrowDown}{ArrowDown}');
    expect(stars[0]).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(stars[4]).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(stars[0]).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(stars[4]).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(stars[0]).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('selects the focused star with Enter or Space', async () => {
    const { stars, onChange } = renderStars();
    await userEvent.tab();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(3);
    await userEvent.keyboard('{ArrowRight} ');
    expect(onChange).toHaveBeenLastCalledWith(4);
    expect(stars[3]).toHaveFocus();
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('sets the rating with the keys 1 to 5', async () => {
    const { stars, onChange } = renderStars();
    await userEvent.tab();
    await userEvent.keyboard('5');
    expect(onChange).toHaveBeenLastCalledWith(5);
    expect(stars[4]).toHaveFocus();
    await userEvent.keyboard('2');
    expect(onChange).toHaveBeenLastCalledWith(2);
    await userEvent.keyboard('6');
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('selects on click', async () => {
    const { onChange } = renderStars();
    await userEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    expect(onChange).toHaveBeenCalledWith(4);
  });

  it('ignores every input when disabled, keeping the stars focusable', async () => {
    const { group, stars, onChange } = renderStars({ value: 2, disabled: true });
    expect(group).toHaveAttribute('aria-disabled', 'true');
    for (const star of stars) expect(star).toHaveAttribute('aria-disabled', 'true');
    await userEvent.tab();
    expect(stars[1]).toHaveFocus();
    await userEvent.keyboard('{Enter} 4');
    await userEvent.click(stars[4]!);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the value read-only: browsable, never changed', async () => {
    const { group, stars, onChange } = renderStars({ value: 4, readOnly: true });
    expect(group).toHaveAttribute('aria-readonly', 'true');
    expect(stars[3]).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(stars[0]!);
    await userEvent.keyboard('{ArrowRight}{Enter}3');
    expect(onChange).not.toHaveBeenCalled();
    expect(stars[3]).toHaveAttribute('aria-checked', 'true');
  });
});
