/**
 * A tiny stand-in for a browser in tests: it keeps cookies per host and follows redirects only when asked,
 * so a test can stop at the app's callback URL (which nothing serves) and look at each hop on the way.
 */
export class TestBrowser {
  // host -> cookie name -> value. Paths and expiry dates are ignored: each test uses a fresh browser,
  // and sending an unneeded cookie to the provider does no harm.
  readonly #cookies = new Map<string, Map<string, string>>();

  async get(url: string | URL): Promise<Response> {
    return this.#request(new URL(url), { method: 'GET' });
  }

  /** Any request, with this browser's cookies; redirects are not followed. */
  async request(url: string | URL, init: RequestInit): Promise<Response> {
    return this.#request(new URL(url), init);
  }

  /** The value of a cookie this browser holds for `url`'s host. */
  cookie(url: string | URL, name: string): string | undefined {
    return this.#cookies.get(new URL(url).host)?.get(name);
  }

  async postForm(url: string | URL, fields: Record<string, string>): Promise<Response> {
    return this.#request(new URL(url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Follows redirects from `response` (which was fetched from `from`) until one leads to a URL `stopAt`
   * accepts, which is returned without being fetched, or until a non-redirect response, which is returned.
   */
  async followRedirects(
    from: string | URL,
    response: Response,
    stopAt: (url: URL) => boolean,
  ): Promise<{ url: URL; response?: Response }> {
    let url = new URL(from);
    let current = response;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) return { url, response: current };
      url = new URL(location, url);
      if (stopAt(url)) return { url };
      current = await this.get(url);
    }
    throw new Error(`Too many redirects, last at ${url.href}`);
  }

  async #request(url: URL, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.#cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.#store(url, response.headers.getSetCookie());
    return response;
  }

  #cookieHeader(url: URL): string {
    const jar = this.#cookies.get(url.host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  #store(url: URL, setCookies: string[]): void {
    const jar = this.#cookies.get(url.host) ?? new Map<string, string>();
    this.#cookies.set(url.host, jar);
    for (const setCookie of setCookies) {
      const [pair = '', ...attributes] = setCookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', attributeValue = ''] = attribute.split('=');
        const lowerKey = key.trim().toLowerCase();
        if (lowerKey === 'max-age') return Number(attributeValue) <= 0;
        if (lowerKey === 'expires') return Date.parse(attributeValue) <= Date.now();
        return false;
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
}

/** Reads the first form of an HTML page: its action and every named input's value (entities decoded). */
export function parseForm(html: string, base: string | URL): { action: URL; fields: Record<string, string> } {
  const form = /<form\b[^>]*>[\s\S]*?<\/form>/i.exec(html)?.[0];
  if (!form) throw new Error('No form on the page');
  const action = /\baction="([^"]*)"/i.exec(form)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const input of form.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[0])?.[1];
    if (name) fields[decodeEntities(name)] = decodeEntities(/\bvalue="([^"]*)"/i.exec(input[0])?.[1] ?? '');
  }
  return { action: new URL(decodeEntities(action), base), fields };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
