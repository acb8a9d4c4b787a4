import { describe, expect, it } from 'vitest';
import { MAX_RETURN_TO_LENGTH, loginPath, sameOriginPath } from './return-to.js';
import { loginQuery } from './schemas/login.js';

describe('sameOriginPath', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/admin/users?page=2&q=ada', '/admin/users?page=2&q=ada'],
    ['/legal#privacy', '/legal'],
    ['/profile/./../settings', '/settings'],
    ['/apiary', '/apiary'],
    ['/crack é', '/crack%20%C3%A9'],
    ['/', '/'],
  ])('keeps the same-origin path %j as %j', (raw, path) => {
    expect(sameOriginPath(raw)).toBe(path);
  });

  it.each([
    ['a host without a scheme', '//evil.com'],
    ['a backslash browsers read as a slash', '/\\evil.com'],
    ['a backslash further on', '/dashboard\\..\\..\\evil'],
    ['an absolute URL', 'https://evil.com/dashboard'],
    ['a scheme-relative URL behind escapes', '/%2F%2Fevil.com'],
    ['an escaped backslash', '/%5Cevil.com'],
    ['a javascript: URL', 'javascript:alert(document.cookie)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'dashboard'],
    ['an empty value', ''],
    ['a tab, which URL parsing drops', '/\t/evil.com'],
    ['a line break (header splitting)', '/dashboard\r\nSet-Cookie: a=b'],
    ['a NUL', '/dashboard%00'],
    ['the sign-out route', '/api/logout'],
    ['the sign-in route', '/api/login?returnTo=/api/logout'],
    ['the API in capitals', '/API/logout'],
    ['the API reached through dot segments', '/x/../api/logout'],
    ['the API reached through escaped dots', '/%2e%2e/api/logout'],
    ['the API with an escaped letter', '/%61pi/logout'],
    ['a broken escape', '/dashboard?q=100%'],
    ['a very long path', `/${'a'.repeat(MAX_RETURN_TO_LENGTH)}`],
    ['a path that grows too long once encoded', `/${'é'.repeat(400)}`],
  ])('refuses %s', (_what, raw) => {
    expect(sameOriginPath(raw)).toBeUndefined();
  });
});

describe('the login query', () => {
  it('answers the checked path, and nothing for a bad, repeated or missing one, never an error', () => {
    expect(loginQuery.parse({ returnTo: '/dashboard' })).toEqual({ returnTo: '/dashboard' });
    expect(loginQuery.parse({ returnTo: '//evil.com' })).toEqual({ returnTo: undefined });
    expect(loginQuery.parse({ returnTo: ['/a', '/b'] })).toEqual({ returnTo: undefined });
    expect(loginQuery.parse({ other: 'x' })).toEqual({});
  });

  it('builds the sign-in link that comes back to a path', () => {
    expect(loginPath(undefined)).toBe('/api/login');
    expect(loginPath('/admin/users?page=2')).toBe('/api/login?returnTo=%2Fadmin%2Fusers%3Fpage%3D2');
  });
});
