import { readFileSync } from 'node:fs';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/fetch-mock';
import { renderApp } from '@/test/render-app';

function renderLegal(path = '/legal') {
  mockFetch({ 'GET /api/auth/user': { status: 401, text: 'Unauthorized' } });
  renderApp(path);
}

describe('legal page', () => {
  it('has the three sections with anchors, each last updated July 27, 2025', async () => {
    renderLegal();
    for (const [id, title] of [
      ['terms', 'Terms of Service'],
      ['privacy', 'Privacy Policy'],
      ['community', 'Community Guidelines'],
    ]) {
      const section = await screen.findByRole('region', { name: title });
      expect(section).toHaveAttribute('id', id);
      expect(within(section).getByText('Last updated: July 27, 2025')).toBeInTheDocument();
    }
  });

  it('covers the required content points', async () => {
    renderLegal();
    const page = (await screen.findByRole('heading', { name: 'Legal Information' })).closest('main') as HTMLElement;
    const text = page.textContent ?? '';
    expect(text).toMatch(/You keep ownership/);
    expect(text).toMatch(/explicit, harmful or offensive/);
    expect(text).toMatch(/All content is moderated/);
    expect(text).toMatch(/approve it, reject it, request changes or remove it/);
    expect(text).toMatch(/visible in the gallery only once (it has|they have) been approved/);
    expect(text).toMatch(/change your vote/);
    expect(text).toMatch(/temporarily or permanently suspending/);
    expect(text).toMatch(/report(ing)? illegal content or activity to the authorities/);
  });

  it('scrolls to a section with an 80 px offset from the quick navigation', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    renderLegal();
    const nav = within(await screen.findByRole('navigation', { name: 'Legal sections' }));
    const privacy = screen.getByRole('region', { name: 'Privacy Policy' });
    vi.spyOn(privacy, 'getBoundingClientRect').mockReturnValue({ top: 1000 } as DOMRect);
    await userEvent.click(nav.getByRole('button', { name: 'Privacy Policy' }));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1000 + window.scrollY - 80, behavior: 'smooth' });
    expect(privacy).toHaveFocus();
  });

  it('gives a deep link its 80 px offset from the page’s scroll padding', () => {
    // The browser itself scrolls to /legal#privacy on load, using scroll-padding-top plus any scroll margin of the
    // section; with both it landed 160 px down. Where it lands is measured in Chromium
    // (services/all-in-one/e2e/profile-settings.e2e.test.ts).
    const indexCss = readFileSync(`${import.meta.dirname}/../index.css`, 'utf8');
    expect(indexCss).toMatch(/html\s*{[^}]*scroll-padding-top:\s*80px/);
  });

  it('lands on the section named in the address', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    renderLegal('/legal#community');
    await screen.findByRole('region', { name: 'Community Guidelines' });
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }));
    expect(screen.getByRole('region', { name: 'Community Guidelines' })).toHaveFocus();
  });

  it('links back home', async () => {
    renderLegal();
    expect(await screen.findByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
