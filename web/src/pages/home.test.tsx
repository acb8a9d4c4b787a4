import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeGalleryPage, makeGalleryPhoto } from '@/components/photo/test-fixtures';
import { redirectTo } from '@/lib/browser';
import { clearJustVoted } from '@/queries/gallery';
import { deferred, mockFetch, type MockHandler, type MockResponse } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import type { User } from '@/lib/types';

// Opening a photo loads the viewer's code on first use: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  clearJustVoted();
});

function renderHome(user: User, gallery: Record<string, MockHandler> = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: user },
    'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
    'GET /api/gallery/all-snaps?page=1&limit=9': { body: EMPTY_GALLERY },
    ...gallery,
  });
  renderApp('/');
  return requests;
}

describe('gallery home', () => {
  it('greets by display name, else by full name, else Snapper', async () => {
    renderHome(makeUser({ displayName: 'Crack Hunter' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Crack Hunter' })).toBeInTheDocument();
  });

  it.each([
    [{ displayName: null }, 'Welcome back, Sam Rivera'],
    [{ displayName: null, firstName: null, lastName: null }, 'Welcome back, Snapper'],
  ])('greets %j as "%s"', async (overrides, greeting) => {
    renderHome(makeUser(overrides));
    expect(await screen.findByRole('heading', { name: greeting })).toBeInTheDocument();
  });

  it('links Snap a Crack and My Dashboard', async () => {
    renderHome(makeUser());
    const hero = (await screen.findByRole('heading', { name: /Welcome back/ })).parentElement as HTMLElement;
    expect(within(hero).getByRole('link', { name: 'Snap a Crack' })).toHaveAttribute('href', '/upload');
    expect(within(hero).getByRole('link', { name: 'My Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('shows the six filters with Top Rated selected, and its empty state', async () => {
    const requests = renderHome(makeUser());
    const filters = within(await screen.findByRole('group', { name: 'Gallery filters' }));
    const names = filters.getAllByRole('button').map((button) => button.querySelector('span')?.textContent);
    expect(names).toEqual(['Top Rated', 'Need your Vote', 'New Today', 'New This Week', 'New This Month', 'All Snaps']);
    expect(filters.getByRole('button', { name: /Top Rated/ })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Oh snap! No cracks found!')).toBeInTheDocument();
    expect(screen.getByText('Try selecting a different filter to see more photos.')).toBeInTheDocument();
    expect(requests.some((request) => request.url === '/api/gallery/top-rated?page=1&limit=9')).toBe(true);
  });

  it('shows the All Snaps empty state, with a Snap a Crack button', async () => {
    renderHome(makeUser());
    await userEvent.click(await screen.findByRole('button', { name: /All Snaps/ }));
    expect(await screen.findByText('No Photos Yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to share a Snap Cracks with the community!')).toBeInTheDocument();
    const emptyState = screen.getByText('No Photos Yet').parentElement as HTMLElement;
    expect(within(emptyState).getByRole('link', { name: 'Snap a Crack' })).toHaveAttribute('href', '/upload');
  });

  it('says when the gallery cannot be loaded, and loads it again on Retry', async () => {
    let fail = true;
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': () =>
        fail ? { status: 500, text: 'boom' } : { body: makeGalleryPage([makeGalleryPhoto({ id: 7, description: 'Back again' })]) },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The photos could not be loaded');
    expect(screen.queryByText('Oh snap! No cracks found!')).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Back again' })).toBeInTheDocument();
    expect(requests.filter((request) => request.url === '/api/gallery/top-rated?page=1&limit=9')).toHaveLength(2);
  });

  it('signs the user in again when the gallery answers 401', async () => {
    renderHome(makeUser(), { 'GET /api/gallery/top-rated?page=1&limit=9': { status: 401, text: 'Unauthorized' } });
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
  });

  it('lists the photos of the selected filter as cards', async () => {
    renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': {
        body: makeGalleryPage([
          makeGalleryPhoto({ id: 7, description: 'A crack shaped like a river', averageRating: 4.25, voteCount: 2 }),
          makeGalleryPhoto({ id: 8, description: null, userId: 'u9', user: null, averageRating: 0, voteCount: 0 }),
          makeGalleryPhoto({ id: 9 }),
          makeGalleryPhoto({ id: 10 }),
        ]),
      },
    });
    const image = await screen.findByRole('img', { name: 'A crack shaped like a river' });
    // The browser picks among the thumbnail, medium and display images by the card's size (image-sources.ts).
    expect(image).toHaveAttribute('src', '/api/uploads/crack-7.jpg?size=medium&v=1');
    expect(image).toHaveAttribute(
      'srcset',
      '/api/uploads/crack-7.jpg?size=thumb&v=1 480w, /api/uploads/crack-7.jpg?size=medium&v=1 960w, /api/uploads/crack-7.jpg?size=display&v=1 1200w',
    );
    expect(image.getAttribute('sizes')).toMatch(/\(min-width: 1280px\) \d+px/);
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '900');
    // The first card is on screen on a phone (the home's hero shows no image there), and is its largest paint:
    // fetched at once and first. The others are lazy and never compete with it.
    expect(image).toHaveAttribute('loading', 'eager');
    expect(image).toHaveAttribute('fetchpriority', 'high');
    expect(image).toHaveAttribute('decoding', 'async');
    const later = screen.getByRole('img', { name: 'Crack number 10' });
    expect(later).toHaveAttribute('loading', 'lazy');
    expect(later).not.toHaveAttribute('fetchpriority');

    const card = within(screen.getByRole('article', { name: 'A crack shaped like a river' }));
    expect(card.getByText('Photo by Ada L')).toBeInTheDocument();
    expect(card.getByText('4.3')).toBeInTheDocument();
    expect(card.getByText('(2 votes)')).toBeInTheDocument();
    expect(card.getByRole('button', { name: /^View/ })).toBeInTheDocument();
    expect(card.queryByRole('link', { name: 'Sign In to Rate' })).not.toBeInTheDocument();

    // An anonymous uploader is "User {id}" on cards.
    const anonymous = within(screen.getByRole('article', { name: 'No description' }));
    expect(anonymous.getByText('Photo by User u9')).toBeInTheDocument();
    // Unrated is not the worst score.
    expect(anonymous.getByText('No ratings yet')).toBeInTheDocument();
    expect(anonymous.queryByText('0.0')).not.toBeInTheDocument();
  });

  it('shows the community stats strip', async () => {
    renderHome(makeUser(), {
      'GET /api/stats/gallery': { body: { photoCount: 1234, totalVotes: 56, ratedFourOrHigher: 7, distinctUploaders: 8 } },
    });
    const strip = within(await screen.findByRole('region', { name: 'Community stats' }));
    expect(await strip.findByText('1,234')).toBeInTheDocument();
    expect(strip.getByText('Photos')).toBeInTheDocument();
    expect(strip.getByText('56')).toBeInTheDocument();
    expect(strip.getByText('Total Votes')).toBeInTheDocument();
    expect(strip.getByText('7')).toBeInTheDocument();
    expect(strip.getByText('8')).toBeInTheDocument();
  });

  it('pages with at most five buttons, scrolls to the gallery, and starts again at page 1 on a new filter', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const page2 = deferred<MockResponse>();
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': { body: makeGalleryPage([makeGalleryPhoto({ id: 1 })], 100) },
      'GET /api/gallery/top-rated?page=2&limit=9': () => page2.promise,
      'GET /api/gallery/new-today?page=1&limit=9': { body: makeGalleryPage([makeGalleryPhoto({ id: 3 })], 10) },
    });
    const nav = within(await screen.findByRole('navigation', { name: 'Gallery pages' }));
    expect(nav.getAllByRole('button', { name: /^Page \d+$/ }).map((button) => button.textContent)).toEqual(['1', '2', '3', '4', '5']);
    expect(nav.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(nav.getByRole('button', { name: 'Page 2' }));
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }));
    // The previous page stays while the next one loads.
    expect(screen.getByRole('img', { name: 'Crack number 1' })).toBeInTheDocument();
    page2.resolve({ body: makeGalleryPage([makeGalleryPhoto({ id: 2 })], 100) });
    expect(await screen.findByRole('img', { name: 'Crack number 2' })).toBeInTheDocument();
    expect(nav.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(screen.getByRole('button', { name: /New Today/ }));
    expect(await screen.findByRole('img', { name: 'Crack number 3' })).toBeInTheDocument();
    expect(requests.map((request) => request.url)).toContain('/api/gallery/new-today?page=1&limit=9');
    expect(requests.map((request) => request.url)).not.toContain('/api/gallery/new-today?page=2&limit=9');
    const newTodayNav = within(screen.getByRole('navigation', { name: 'Gallery pages' }));
    expect(newTodayNav.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(newTodayNav.getAllByRole('button', { name: /^Page \d+$/ })).toHaveLength(2);
  });

  it('opens a photo, shows the previous rating and records a vote', async () => {
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': {
        body: makeGalleryPage([makeGalleryPhoto({ id: 7, description: 'Riverbed', averageRating: 4, voteCount: 2 })]),
      },
      'GET /api/photos/7/vote': { body: { rating: 3 } },
      'POST /api/photos/7/vote': { body: { rating: 5, averageRating: 4.333, voteCount: 3 } },
    });
    const view = await screen.findByRole('button', { name: 'View photo by Ada L' });
    await userEvent.click(view);
    const dialogElement = await screen.findByRole('dialog', { name: 'Photo by Ada L' });
    const dialog = within(dialogElement);
    // The dialog itself takes the focus, so Enter cannot vote by accident; Tab reaches the rating.
    expect(dialogElement).toHaveFocus();
    expect(dialog.getByText('Riverbed')).toBeInTheDocument();
    expect(dialog.getByText('4.0')).toBeInTheDocument();
    expect(dialog.getByText('(2 votes)')).toBeInTheDocument();

    const stars = dialog.getByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(within(stars).getByRole('radio', { name: '3 stars' })).toHaveAttribute('aria-checked', 'true'));
    expect(stars).not.toHaveAttribute('aria-disabled');

    await userEvent.click(within(stars).getByRole('radio', { name: '5 stars' }));
    expect(await screen.findByText('Vote Submitted')).toBeInTheDocument();
    expect(screen.getByText('Your vote has been recorded successfully.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.json).toEqual({ rating: 5 });
    expect(within(stars).getByRole('radio', { name: '5 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(dialog.getByText('4.3')).toBeInTheDocument();
    expect(dialog.getByText('(3 votes)')).toBeInTheDocument();

    // The card shows the new average too, even after the gallery is refetched with the old one.
    await waitFor(() =>
      expect(requests.filter((request) => request.url === '/api/gallery/top-rated?page=1&limit=9')).toHaveLength(2),
    );
    // (Escape would first close the toast, the topmost layer.)
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    const card = within(await screen.findByRole('article', { name: 'Riverbed' }));
    // Focus goes back to the View button.
    await waitFor(() => expect(screen.getByRole('button', { name: 'View photo by Ada L' })).toHaveFocus());
    await waitFor(() => expect(card.getByText('4.3')).toBeInTheDocument());
    expect(card.getByText('(3 votes)')).toBeInTheDocument();
  });

  it('says when a vote fails', async () => {
    renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': { body: makeGalleryPage([makeGalleryPhoto({ id: 7 })]) },
      'GET /api/photos/7/vote': { body: { rating: null } },
      'POST /api/photos/7/vote': { status: 500, text: 'boom' },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View photo by Ada L' }));
    const stars = await screen.findByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(stars).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(stars).getByRole('radio', { name: '2 stars' }));
    expect(await screen.findByText('Failed to submit vote. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(within(stars).getByRole('radio', { name: '2 stars' })).toHaveAttribute('aria-checked', 'false');
  });

  it('signs the user in again when a vote answers 401', async () => {
    renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': { body: makeGalleryPage([makeGalleryPhoto({ id: 7 })]) },
      'GET /api/photos/7/vote': { body: { rating: null } },
      'POST /api/photos/7/vote': { status: 401, text: 'Unauthorized' },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View photo by Ada L' }));
    const stars = await screen.findByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(stars).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(stars).getByRole('radio', { name: '4 stars' }));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('/api/login'));
  });

  it('shows one\'s own photo with its average read-only, without asking for a vote', async () => {
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': {
        body: makeGalleryPage([makeGalleryPhoto({ id: 7, userId: 'user-1', user: null, averageRating: 3.6 })]),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View photo by User user-1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Photo by User user-1' }));
    const stars = dialog.getByRole('radiogroup', { name: 'Average rating' });
    expect(stars).toHaveAttribute('aria-readonly', 'true');
    expect(within(stars).getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(dialog.getByText(/your photo, so you can't rate it/)).toBeInTheDocument();
    expect(requests.some((request) => request.url.endsWith('/vote'))).toBe(false);
  });

  it('removes a photo from Need your Vote as soon as it is rated, even if the next load still lists it', async () => {
    const needYourVote = makeGalleryPage([
      makeGalleryPhoto({ id: 7, description: 'First' }),
      makeGalleryPhoto({ id: 8, description: 'Second' }),
    ]);
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/need-your-vote?page=1&limit=9': { body: needYourVote },
      'GET /api/photos/7/vote': { body: { rating: null } },
      'GET /api/photos/8/vote': { body: { rating: null } },
      'POST /api/photos/7/vote': { body: { rating: 4, averageRating: 4, voteCount: 3 } },
    });
    await userEvent.click(await screen.findByRole('button', { name: /Need your Vote/ }));
    await userEvent.click((await screen.findAllByRole('button', { name: 'View photo by Ada L' }))[0]!);
    const dialog = within(await screen.findByRole('dialog', { name: 'Photo by Ada L' }));
    const stars = dialog.getByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(stars).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(stars).getByRole('radio', { name: '4 stars' }));
    expect(await screen.findByText('Vote Submitted')).toBeInTheDocument();
    // The viewer moves on to the next photo that needs a vote; the grid behind it keeps both cards meanwhile.
    expect(await dialog.findByText('Second')).toBeInTheDocument();
    expect(screen.getAllByRole('article', { hidden: true })).toHaveLength(2);

    await waitFor(() =>
      expect(requests.filter((request) => request.url.startsWith('/api/gallery/need-your-vote'))).toHaveLength(2),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('aria-labelledby'))).toEqual([
      'photo-8-title',
    ]);
  });
});

describe('the photo viewer', () => {
  const PAGE = makeGalleryPage([
    makeGalleryPhoto({ id: 7, description: 'First' }),
    makeGalleryPhoto({ id: 8, description: 'Second' }),
    makeGalleryPhoto({ id: 9, description: 'Third' }),
  ]);
  const votes = {
    'GET /api/photos/7/vote': { body: { rating: null } },
    'GET /api/photos/8/vote': { body: { rating: null } },
    'GET /api/photos/9/vote': { body: { rating: null } },
  };

  it('opens from the photo itself and moves with the arrow keys and the buttons beside the photo', async () => {
    renderHome(makeUser(), { 'GET /api/gallery/top-rated?page=1&limit=9': { body: PAGE }, ...votes });
    await userEvent.click(await screen.findByRole('img', { name: 'Second' }));
    const dialogElement = await screen.findByRole('dialog', { name: 'Photo by Ada L' });
    const dialog = within(dialogElement);
    expect(dialog.getByText('Photo 2 of 3')).toBeInTheDocument();
    expect(dialog.getByText('Second')).toBeInTheDocument();

    await userEvent.keyboard('{ArrowRight}');
    expect(dialog.getByText('Third')).toBeInTheDocument();
    expect(dialog.getByText('Photo 3 of 3')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Next photo' })).toBeDisabled();
    // The keys keep working: focus stays in the viewer as the photo changes.
    expect(dialogElement).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(dialog.getByText('First')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Previous photo' })).toBeDisabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Next photo' }));
    expect(dialog.getByText('Second')).toBeInTheDocument();

    // Arrows inside the stars move between stars, not photos.
    const stars = dialog.getByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(stars).not.toHaveAttribute('aria-disabled'));
    within(stars).getByRole('radio', { name: '1 star' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(stars).getByRole('radio', { name: '2 stars' })).toHaveFocus();
    expect(dialog.getByText('Second')).toBeInTheDocument();

    // Closing returns focus to the card of the photo last shown.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'View photo by Ada L' })[1]).toHaveFocus());
  });

  it('votes with a digit from anywhere in the viewer, and Escape then closes it although the toast shows', async () => {
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': { body: PAGE },
      ...votes,
      'POST /api/photos/7/vote': { body: { rating: 4, averageRating: 4, voteCount: 3 } },
    });
    await userEvent.click(await screen.findByRole('img', { name: 'First' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Photo by Ada L' }));
    await waitFor(() => expect(dialog.getByRole('radiogroup', { name: 'Your rating' })).not.toHaveAttribute('aria-disabled'));
    await userEvent.keyboard('4');
    expect(await screen.findByText('Vote Submitted')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.json).toEqual({ rating: 4 });
    // Top Rated does not move on by itself.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(dialog.getByText('First')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Vote Submitted')).toBeInTheDocument();
  });

  it('walks through Need your Vote to the next unrated photo after each vote, then says all are rated', async () => {
    const requests = renderHome(makeUser(), {
      'GET /api/gallery/need-your-vote?page=1&limit=9': { body: PAGE },
      ...votes,
      'POST /api/photos/7/vote': { body: { rating: 5, averageRating: 5, voteCount: 3 } },
      'POST /api/photos/8/vote': { body: { rating: 3, averageRating: 3, voteCount: 3 } },
      'POST /api/photos/9/vote': { body: { rating: 2, averageRating: 2, voteCount: 3 } },
    });
    await userEvent.click(await screen.findByRole('button', { name: /Need your Vote/ }));
    await userEvent.click(await screen.findByRole('img', { name: 'Second' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Photo by Ada L' }));
    const vote = async (digit: string, next: string) => {
      await waitFor(() => expect(dialog.getByRole('radiogroup', { name: 'Your rating' })).not.toHaveAttribute('aria-disabled'));
      await userEvent.keyboard(digit);
      expect(await dialog.findByText(next)).toBeInTheDocument();
    };
    await vote('3', 'Third');
    // After the last one it goes back to the one skipped at the start.
    await vote('2', 'First');
    await vote('5', 'All caught up');
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual([
      '/api/photos/8/vote',
      '/api/photos/9/vote',
      '/api/photos/7/vote',
    ]);
    // The grid behind it never reshuffled; once closed, it shows what is left.
    expect(screen.getAllByRole('article', { hidden: true })).toHaveLength(3);
    await userEvent.click(dialog.getByRole('button', { name: 'Back to the gallery' }));
    expect(await screen.findByText('Oh snap! No cracks found!')).toBeInTheDocument();
  });
});
