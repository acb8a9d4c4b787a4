/** Keys typed into these belong to them, never to the review shortcuts. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A key pressed without Alt, Control, Command or Shift, as the review shortcuts (A, R, Space, the arrows) want it. */
export function isPlainKey(event: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }): boolean {
  return !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
}
