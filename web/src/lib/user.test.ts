import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { getAvatarInitial, getAvatarUrl, getDisplayName, getUploaderName } from './user';

describe('display name rule', () => {
  it('prefers displayName', () => {
    expect(getDisplayName(makeUser({ displayName: 'Crack Hunter' }))).toBe('Crack Hunter');
  });

  it('falls back to first and last name joined', () => {
    expect(getDisplayName(makeUser({ displayName: null, firstName: 'Ada', lastName: 'Lovelace' }))).toBe('Ada Lovelace');
    expect(getDisplayName(makeUser({ displayName: '  ', firstName: 'Ada', lastName: null }))).toBe('Ada');
  });

  it('falls back to Anonymous User, or to the given fallback', () => {
    const nameless = makeUser({ displayName: null, firstName: null, lastName: null });
    expect(getDisplayName(nameless)).toBe('Anonymous User');
    expect(getDisplayName(nameless, 'Snapper')).toBe('Snapper');
    expect(getDisplayName(null, 'Snapper')).toBe('Snapper');
  });

  it('shows an anonymous uploader as User {id}', () => {
    expect(getUploaderName({ firstName: null, lastName: null }, '42')).toBe('User 42');
    expect(getUploaderName({ firstName: 'Ada', lastName: 'L' }, '42')).toBe('Ada L');
  });
});

describe('avatar rule', () => {
  it('serves a custom profile image from /uploads', () => {
    expect(getAvatarUrl(makeUser({ customProfileImage: 'avatar-1.png', profileImageUrl: 'https://idp/p.png' }))).toBe(
      '/uploads/avatar-1.png',
    );
  });

  it('otherwise uses the provider picture, otherwise nothing (generated avatar)', () => {
    expect(getAvatarUrl(makeUser({ profileImageUrl: 'https://idp/p.png' }))).toBe('https://idp/p.png');
    expect(getAvatarUrl(makeUser())).toBeNull();
  });

  it('ignores blank values and encodes the stored name', () => {
    expect(getAvatarUrl(makeUser({ customProfileImage: '  ', profileImageUrl: 'https://idp/p.png' }))).toBe('https://idp/p.png');
    expect(getAvatarUrl(makeUser({ customProfileImage: '  ', profileImageUrl: ' ' }))).toBeNull();
    expect(getAvatarUrl(makeUser({ customProfileImage: 'a b?.webp' }))).toBe('/uploads/a%20b%3F.webp');
    expect(getAvatarInitial(makeUser({ displayName: '  ', firstName: ' ', email: 'x@example.com' }))).toBe('X');
  });

  it('takes the initial from displayName, then firstName, then email, else U', () => {
    expect(getAvatarInitial(makeUser({ displayName: 'zed', firstName: 'Amy' }))).toBe('Z');
    expect(getAvatarInitial(makeUser({ displayName: null, firstName: 'amy' }))).toBe('A');
    expect(getAvatarInitial(makeUser({ displayName: null, firstName: null, email: 'quinn@example.com' }))).toBe('Q');
    expect(getAvatarInitial(makeUser({ displayName: null, firstName: null, email: null }))).toBe('U');
    expect(getAvatarInitial(null)).toBe('U');
  });
});
