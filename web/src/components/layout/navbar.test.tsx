import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { mockFetch } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import type { User } from '@/lib/types';

function renderSignedIn(user: User, path = '/contact') {
  mockFetch({
    'GET /api/auth/user': { body: user },
    'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
  });
  return renderApp(path);
}

/** The main navigation, once the session has loaded (the account menu only exists when signed in). */
async function mainNav() {
  await screen.findByRole('button', { name: 'Open account menu' });
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

/** An Image that reports itself loaded at once: jsdom never loads images, and Radix Avatar waits for it. */
class InstantlyLoadedImage extends EventTarget {
  complete = true;
  naturalWidth = 64;
  src = '';
  crossOrigin: string | null = null;
  referrerPolicy = '';
}

describe('navbar', () => {
  it('links Gallery, Upload and Dashboard, without Admin for members', async () => {
    renderSignedIn(makeUser());
    const nav = await mainNav();
    expect(nav.getByRole('link', { name: 'Gallery' })).toHaveAttribute('href', '/');
    expect(nav.getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/upload');
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(nav.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('adds the Admin link for administrators', async () => {
    renderSignedIn(makeUser({ isAdmin: true }));
    expect((await mainNav()).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('hides the brand image when it fails to load, keeping the link home', async () => {
    renderSignedIn(makeUser());
    const banner = within(await screen.findByRole('banner'));
    const logo = banner.getByRole('img', { name: 'Snap Cracks' });
    expect(logo).toHaveAttribute('src', '/api/uploads/snapcracks-icon.svg');
    expect(logo.closest('a')).toHaveAttribute('href', '/');
    fireEvent.error(logo);
    expect(banner.queryByRole('img', { name: 'Snap Cracks' })).not.toBeInTheDocument();
    expect(banner.getByRole('link', { name: 'Snap Cracks' })).toHaveAttribute('href', '/');
  });

  it('opens the account menu with Profile, Settings and Sign Out', async () => {
    renderSignedIn(makeUser());
    const trigger = await screen.findByRole('button', { name: 'Open account menu' });
    expect(within(trigger).getByText('S')).toBeInTheDocument(); // generated avatar initial
    await userEvent.click(trigger);
    const menu = within(screen.getByRole('menu'));
    expect(menu.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(menu.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    await userEvent.click(menu.getByRole('menuitem', { name: 'Sign Out' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/logout');
  });

  it('offers the same links and Sign Out in the mobile drawer', async () => {
    renderSignedIn(makeUser({ isAdmin: true }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open navigation menu' }));
    const drawer = within(screen.getByRole('dialog', { name: 'Menu' }));
    for (const [name, href] of [
      ['Gallery', '/'],
      ['Upload', '/upload'],
      ['Dashboard', '/dashboard'],
      ['Admin', '/admin'],
      ['Profile', '/profile'],
      ['Settings', '/settings'],
    ]) {
      expect(drawer.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    await userEvent.click(drawer.getByRole('link', { name: 'Upload' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Snap a Crack' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Sign Out' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/logout');
  });

  it('signs a visitor in from the navbar and the mobile drawer, coming back to the page', async () => {
    mockFetch({ 'GET /api/auth/user': { status: 401, text: '{"message":"Unauthorized"}' } });
    renderApp('/contact');
    const header = within(await screen.findByRole('banner'));
    await userEvent.click(await header.findByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenLastCalledWith('/api/login?returnTo=/contact');

    await userEvent.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenLastCalledWith('/api/login?returnTo=/contact');
    expect(redirectTo).toHaveBeenCalledTimes(2);
  });

  it('uses the uploaded avatar before the provider picture', async () => {
    const originalImage = window.Image;
    window.Image = InstantlyLoadedImage as unknown as typeof Image;
    try {
      renderSignedIn(makeUser({ customProfileImage: 'me.png', profileImageUrl: 'https://idp.example/me.png' }));
      const trigger = await screen.findByRole('button', { name: 'Open account menu' });
      await waitFor(() => expect(trigger.querySelector('img')).toHaveAttribute('src', '/uploads/me.png'));
    } finally {
      window.Image = originalImage;
    }
  });
});

describe('footer', () => {
  it('links contact and the legal sections and dates 2025; the rest are placeholders', async () => {
    renderSignedIn(makeUser());
    const footer = within(await screen.findByRole('contentinfo'));
    expect(footer.getByText(/© 2025 Snap Cracks/)).toBeInTheDocument();
    expect(footer.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/legal#terms');
    expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/legal#privacy');
    expect(footer.getByRole('link', { name: 'Community Guidelines' })).toHaveAttribute('href', '/legal#community');
    for (const placeholder of ['Gallery', 'Top Rated', 'Recent', 'Help Center']) {
      expect(footer.getByText(placeholder)).not.toHaveAttribute('href');
      expect(footer.queryByRole('link', { name: placeholder })).not.toBeInTheDocument();
    }
  });
});
