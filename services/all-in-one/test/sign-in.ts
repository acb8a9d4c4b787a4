import { TestBrowser, parseForm } from '@snapcracks/dev-idp/testing';

/** Signs in through the gateway and the development identity provider, as a browser would, without JavaScript. */
export async function signIn(baseUrl: string, email: string, name: string, browser = new TestBrowser()): Promise<{ browser: TestBrowser; landing: Response }> {
  const start = await browser.get(`${baseUrl}/api/login`);
  const atForm = await browser.followRedirects(`${baseUrl}/api/login`, start, () => false);
  if (!atForm.response) throw new Error('no sign-in page');
  const { action, fields } = parseForm(await atForm.response.text(), atForm.url);
  const posted = await browser.postForm(action, { ...fields, email, name });
  const done = await browser.followRedirects(action, posted, (url) => url.href === `${baseUrl}/`);
  const landing = done.response ?? (await browser.get(done.url));
  return { browser, landing };
}
