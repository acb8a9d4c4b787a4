import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { GalleryPagination, pageWindow } from './gallery-pagination';

describe('pageWindow', () => {
  it('offers every page when there are at most five', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('centres five pages on the current one, inside the range', () => {
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 12)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(11, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(12, 12)).toEqual([8, 9, 10, 11, 12]);
  });
});

describe('GalleryPagination', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<GalleryPagination page={1} totalPages={1} onPageChange={() => {}} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows at most five page buttons with the current one marked, plus previous and next', async () => {
    const onPageChange = vi.fn();
    render(<GalleryPagination page={6} totalPages={20} onPageChange={onPageChange} />);
    const nav = within(screen.getByRole('navigation', { name: 'Gallery pages' }));
    const pages = nav.getAllByRole('button', { name: /^Page \d+$/ });
    expect(pages.map((button) => button.textContent)).toEqual(['4', '5', '6', '7', '8']);
    expect(nav.getByRole('button', { name: 'Page 6' })).toHaveAttribute('aria-current', 'page');
    expect(pages.filter((button) => button.hasAttribute('aria-current'))).toHaveLength(1);

    await userEvent.click(nav.getByRole('button', { name: 'Page 8' }));
    expect(onPageChange).toHaveBeenLastCalledWith(8);
    await userEvent.click(nav.getByRole('button', { name: 'Previous page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(5);
    await userEvent.click(nav.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(7);
    await userEvent.click(nav.getByRole('button', { name: 'Page 6' }));
    expect(onPageChange).toHaveBeenCalledTimes(3);
  });

  it('disables previous on the first page and next on the last', () => {
    const { rerender } = render(<GalleryPagination page={1} totalPages={3} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
    rerender(<GalleryPagination page={3} totalPages={3} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });
});

describe('GalleryPagination position', () => {
  it('says which page of how many is shown', () => {
    render(<GalleryPagination page={2} totalPages={15} onPageChange={() => {}} />);
    expect(screen.getByRole('navigation', { name: 'Gallery pages' })).toHaveTextContent('Page 2 of 15');
  });
});
