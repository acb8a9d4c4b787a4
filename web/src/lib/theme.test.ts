import { describe, expect, it } from 'vitest';
import { applyTheme, readStoredTheme, resolveTheme, storeTheme, systemPrefersDark, THEME_STORAGE_KEY } from './theme';

describe('theme resolution', () => {
  it('uses the stored choice first', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('falls back to the system preference, else light', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
  });

  it('reads only valid values stored under the "theme" key', () => {
    expect(THEME_STORAGE_KEY).toBe('theme');
    localStorage.setItem('theme', 'dark');
    expect(readStoredTheme()).toBe('dark');
    localStorage.setItem('theme', 'purple');
    expect(readStoredTheme()).toBeNull();
  });

  it('survives blocked storage', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readStoredTheme(blocked)).toBeNull();
    expect(() => storeTheme('dark', blocked)).not.toThrow();
  });

  it('detects the system preference through matchMedia', () => {
    const prefersDark = ((query: string) => ({ matches: query === '(prefers-color-scheme: dark)' })) as Window['matchMedia'];
    expect(systemPrefersDark(prefersDark)).toBe(true);
    expect(systemPrefersDark(undefined)).toBe(false);
  });

  it('puts the dark class on <html>', () => {
    applyTheme('dark');
    expect(document.documentElement).toHaveClass('dark');
    applyTheme('light');
    expect(document.documentElement).not.toHaveClass('dark');
  });
});
