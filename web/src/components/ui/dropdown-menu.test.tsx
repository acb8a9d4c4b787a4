import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './dropdown-menu';

function Menu() {
  return (
    <div data-testid="page">
      <a href="/elsewhere">A link on the page</a>
      <DropdownMenu>
        <DropdownMenuTrigger>Open menu</DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem>Profile</DropdownMenuItem>
          <DropdownMenuItem variant="destructive">Sign Out</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

describe('dropdown menu', () => {
  it('does not hide the rest of the page from assistive technology while open (axe: aria-hidden-focus)', async () => {
    render(<Menu />);
    screen.getByRole('button', { name: 'Open menu' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveFocus();
    // A modal menu puts aria-hidden on everything else, the focusable trigger and links included.
    expect(screen.getByTestId('page').closest('[aria-hidden="true"]')).toBeNull();
    expect(screen.getByRole('link', { name: 'A link on the page' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });
});
