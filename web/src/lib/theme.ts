/**
 * Theme resolution (SPEC §4): the choice stored under the `theme` key, else the system preference,
 * else light. index.html repeats this logic inline so the right theme is applied before first paint.
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';

function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage()): Theme | null {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : null;
  } catch {
    return null; // Storage can throw when blocked (private mode, sandboxed iframes).
  }
}

export function systemPrefersDark(matchMedia: Window['matchMedia'] | undefined = globalThis.matchMedia): boolean {
  try {
    return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  } catch {
    return false;
  }
}

export function resolveTheme(stored: Theme | null, prefersDark: boolean): Theme {
  if (stored) return stored;
  return prefersDark ? 'dark' : 'light';
}

export function getInitialTheme(): Theme {
  return resolveTheme(readStoredTheme(), systemPrefersDark());
}

export function storeTheme(theme: Theme, storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage()): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // The theme still applies for this visit; it just will not be remembered.
  }
}

/** Puts the theme on <html>: the `dark` class drives Tailwind's dark variant, color-scheme the native widgets. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
