/**
 * Escape closes the dialog a person is in, whatever toast is showing.
 *
 * Radix lets only the most recently mounted layer answer Escape, and a toast raised from inside a dialog (a
 * vote's "Vote Submitted") mounts after it: Escape would close the toast and leave the dialog open. The toaster
 * declines such an Escape (`leaveEscapeToDialog`), and the dialog that has focus closes itself when it sees one
 * (`isEscapeLeftToDialog`).
 */
/** Marks the dialogs (ui/dialog.tsx) that close on an Escape a toast declined. */
export const DIALOG_ATTRIBUTE = 'data-closes-on-escape';

const escapesLeftToDialogs = new WeakSet<Event>();

function isModalDialogOpen(): boolean {
  return document.querySelector(`[${DIALOG_ATTRIBUTE}][data-state="open"]`) !== null;
}

/** A toast's onEscapeKeyDown: keeps the toast and hands the key to the open dialog. */
export function leaveEscapeToDialog(event: KeyboardEvent): void {
  if (!isModalDialogOpen()) return;
  event.preventDefault();
  escapesLeftToDialogs.add(event);
}

/** Whether a toast declined this Escape so that the dialog it reaches closes. */
export function isEscapeLeftToDialog(event: Event): boolean {
  return escapesLeftToDialogs.has(event);
}
