import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { SignInButton } from './sign-in-button';

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <SignInButton>Sign In</SignInButton>
    </MemoryRouter>,
  );
}

describe('SignInButton', () => {
  it('goes to /api/login from the home page', async () => {
    renderAt('/');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/login');
  });

  it('goes to /api/login asking to come back to the page and its query, without the hash', async () => {
    renderAt('/admin/users?page=2#list');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/login?returnTo=/admin/users%3Fpage%3D2');
  });
});
