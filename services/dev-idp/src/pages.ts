import { escapeHtml, htmlDocument, scriptHashSource } from './html.js';

export const SIGN_IN_TITLE = 'Snap Cracks — development sign-in';

export interface SignInPageInput {
  /** Where the form posts: this interaction's own URL. */
  action: string;
  /** What was typed before, so a failed attempt keeps it. */
  email?: string;
  name?: string;
  /** Shown next to the email field, and announced by screen readers. */
  emailError?: string;
}

export function signInPage({ action, email = '', name = '', emailError }: SignInPageInput): string {
  const errorId = 'email-error';
  const emailErrorHtml = emailError ? `<p class="error" id="${errorId}" role="alert">${escapeHtml(emailError)}</p>` : '';
  const emailInvalid = emailError ? ` aria-invalid="true" aria-describedby="${errorId}"` : '';
  return htmlDocument(
    SIGN_IN_TITLE,
    `<h1>Development sign-in</h1>
<p class="note">This is the local development identity provider of Snap Cracks, not a real account service.
Any email works and no password is needed; the same email always signs you in as the same user.</p>
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="email" autofocus value="${escapeHtml(email)}"${emailInvalid}>
${emailErrorHtml}
<label for="name">Name</label>
<span class="hint" id="name-hint">Optional. The first word is your given name, the rest your family name.</span>
<input id="name" name="name" type="text" autocomplete="name" aria-describedby="name-hint" value="${escapeHtml(name)}">
<button type="submit">Sign in</button>
</form>`,
  );
}

/** The script that submits the provider's logout form as soon as the page has loaded. */
const AUTO_SUBMIT_SCRIPT = "document.addEventListener('DOMContentLoaded', function () { document.forms[0].submit(); });";
export const AUTO_SUBMIT_SCRIPT_SOURCE = scriptHashSource(AUTO_SUBMIT_SCRIPT);

/**
 * The end-session page. oidc-provider insists on a POST (with its anti-forgery token) to end a session, and
 * would normally ask "Do you want to sign out?". Here the form submits itself instead, and carries
 * `logout=yes` so the whole session ends, not only the calling app's part of it.
 * `providerForm` is oidc-provider's own `<form id="op.logoutForm">…</form>` markup.
 */
export function signingOutPage(providerForm: string): string {
  const form = providerForm.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
  return htmlDocument(
    'Signing out — Snap Cracks',
    `<h1>Signing out…</h1>
${form}
<noscript><p class="note">JavaScript is off, so continue by hand.</p>
<button type="submit" form="op.logoutForm">Continue</button></noscript>`,
    `<script>${AUTO_SUBMIT_SCRIPT}</script>`,
  );
}

/** Shown only when an app ends the session without naming where to go next. */
export function signedOutPage(): string {
  return htmlDocument(
    'Signed out — Snap Cracks',
    `<h1>You are signed out</h1>
<p class="note">You have been signed out of the Snap Cracks development identity provider. You can close this page.</p>`,
  );
}

/** Errors are the provider's protocol errors or an expired sign-in; all text shown is escaped. */
export function errorPage(title: string, message: string): string {
  return htmlDocument(
    `${title} — Snap Cracks`,
    `<h1>${escapeHtml(title)}</h1>
<p class="note">${escapeHtml(message)}</p>`,
  );
}
