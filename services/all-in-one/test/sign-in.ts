import { TestBrowser, parseForm } from '@snapcracks/dev-idp/testing';

/**
 * Signs in through the gateway and the development identity provider, as a browser would, without JavaScript, starting
 * at `loginPath` (`/api/login?returnTo=/dashboard` to come back to a page). Answers the page it lands on: `landedAt`,
 * the first address on the product that is not under /api, and `landing`, that page (or the refusal that ended it).
 * An empty `name` signs in without a name claim.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  name: string,
  browser = new TestBrowser(),
  loginPath = '/api/login',
): Promise<{ browser: TestBrowser; landing: Response; landedAt: URL }> {
  const start = await browser.get(`${baseUrl}${loginPath}`);
  const atForm = await browser.followRedirects(`${baseUrl}${loginPath}`, start, () => false);
  if (!atForm.response) throw new Error('no sign-in page');
  const { action, fields } = parseForm(await atForm.response.text(), atForm.url);
  const posted = await browser.postForm(action, { ...fields, email, name });
  const product = new URL(baseUrl).origin;
  const done = await browser.followRedirects(action, posted, (url) => url.origin === product && !url.pathname.startsWith('/api/'));
  const landing = done.response ?? (await browser.get(done.url));
  return { browser, landing, landedAt: done.url };
}
