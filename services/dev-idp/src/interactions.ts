import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Provider } from 'oidc-provider';

import { emailProblem, profileFromForm, type DevAccountStore } from './accounts.js';
import { HttpError, readUrlEncodedForm, sendHtml } from './http-io.js';
import type { DevIdpLogger } from './logger.js';
import { interactionPath } from './provider-config.js';
import { errorPage, signInPage } from './pages.js';

// oidc-provider's interaction uids are nanoids: URL-safe characters only.
const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]+)$/;

/** The uid when `pathname` is one of our sign-in pages, else undefined. */
export function matchInteraction(pathname: string): string | undefined {
  return INTERACTION_ROUTE.exec(pathname)?.[1];
}

const EXPIRED_MESSAGE = 'This sign-in page has expired or was already used. Go back to Snap Cracks and sign in again.';

/**
 * Serves `/interaction/:uid`: GET shows the sign-in form, POST signs in as the typed email and hands the
 * browser back to oidc-provider, which then issues the code (consent is granted by `auto-grant.ts`).
 */
export function createInteractionRoutes(provider: Provider, accounts: DevAccountStore, logger: DevIdpLogger) {
  async function pendingInteraction(req: IncomingMessage, res: ServerResponse, uid: string) {
    try {
      const interaction = await provider.interactionDetails(req, res);
      // The cookie names the browser's pending interaction; an old tab's URL must not finish a newer one.
      return interaction.uid === uid ? interaction : undefined;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    }
  }

  async function show(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await pendingInteraction(req, res, uid);
    if (!interaction) return sendHtml(res, 400, errorPage('Sign-in expired', EXPIRED_MESSAGE));
    const loginHint = interaction.params.login_hint;
    const email = typeof loginHint === 'string' ? loginHint : '';
    sendHtml(res, 200, signInPage({ action: interactionPath(uid), email }));
  }

  async function submit(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await pendingInteraction(req, res, uid);
    if (!interaction) return sendHtml(res, 400, errorPage('Sign-in expired', EXPIRED_MESSAGE));

    const form = await readUrlEncodedForm(req);
    const rawEmail = form.get('email') ?? '';
    const rawName = form.get('name') ?? '';
    const problem = emailProblem(rawEmail);
    if (problem) {
      return sendHtml(res, 400, signInPage({ action: interactionPath(uid), email: rawEmail, name: rawName, emailError: problem }));
    }

    const accountId = accounts.signIn(profileFromForm(rawEmail, rawName));
    logger.info({ sub: accountId, clientId: interaction.params.client_id }, 'development sign-in');
    // The prompt is login; everything else the request needs is granted without asking (see auto-grant.ts).
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }

  /** Handles one request for `/interaction/:uid`. */
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    try {
      if (req.method === 'GET' || req.method === 'HEAD') return await show(req, res, uid);
      if (req.method === 'POST') return await submit(req, res, uid);
      res.setHeader('Allow', 'GET, HEAD, POST');
      sendHtml(res, 405, errorPage('Not allowed', 'This page only supports viewing and submitting the sign-in form.'));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      sendHtml(res, error.status, errorPage('Sign-in failed', error.message));
    }
  };
}
