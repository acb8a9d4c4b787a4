import { afterEach, describe, expect, it } from 'vitest';
import { LOGIN_URL } from './api';
import { currentPath, loginHref } from './browser';

describe('loginHref', () => {
  it('is the plain sign-in route without a page to come back to, or for the home page', () => {
    expect(LOGIN_URL).toBe('/api/login');
    expect(loginHref()).toBe('/api/login');
    expect(loginHref('')).toBe('/api/login');
    expect(loginHref('/')).toBe('/api/login');
  });

  it.each([
    ['/dashboard', '/api/login?returnTo=/dashboard'],
    ['/admin/users?page=2&q=ada', '/api/login?returnTo=/admin/users%3Fpage%3D2%26q%3Dada'],
    ['/settings#danger', '/api/login?returnTo=/settings%23danger'],
    ['/crack é', '/api/login?returnTo=/crack%20%C3%A9'],
  ])('comes back to %s', (path, href) => {
    expect(loginHref(path)).toBe(href);
    // What the gateway reads back is the path itself.
    expect(new URL(href, 'http://localhost').searchParams.get('returnTo')).toBe(path);
  });

  it.each([
    ['another host', '//evil.example'],
    ['another host behind a backslash', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['the sign-out route', '/api/logout'],
    ['the sign-in route', '/api/login?returnTo=/dashboard'],
    ['a very long path', `/${'a'.repeat(1000)}`],
  ])('does not ask to come back to %s', (_what, path) => {
    expect(loginHref(path)).toBe('/api/login');
  });
});

describe('currentPath', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('is the path and query the browser shows, without the hash', () => {
    window.history.replaceState(null, '', '/admin/users?page=3#top');
    expect(currentPath()).toBe('/admin/users?page=3');
  });
});
