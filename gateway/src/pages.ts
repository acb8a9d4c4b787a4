/** Small server-rendered pages for the moments the SPA is not in charge: a refused or failed sign-in. */
export function messagePage(title: string, message: string, link: { href: string; label: string }): string {
  return page(title, `<p>${escapeHtml(message)}</p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`);
}

/** A question answered by posting a form to our own address (so the cross-site check applies), or by leaving. */
export function confirmPage(title: string, message: string, form: { action: string; label: string }, cancel: { href: string; label: string }): string {
  return page(
    title,
    `<p>${escapeHtml(message)}</p><form method="post" action="${escapeHtml(form.action)}"><button type="submit">${escapeHtml(form.label)}</button>` +
      ` <a class="secondary" href="${escapeHtml(cancel.href)}">${escapeHtml(cancel.label)}</a></form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Snap Cracks</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { max-width: 28rem; padding: 2rem; border: 1px solid color-mix(in srgb, CanvasText 15%, transparent); border-radius: 0.75rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  p { line-height: 1.5; margin: 0 0 1.25rem; }
  a, button { display: inline-block; padding: 0.5rem 1rem; border: 0; border-radius: 0.5rem; background: #ea580c; color: white; font: inherit; text-decoration: none; cursor: pointer; }
  a.secondary { background: transparent; color: inherit; border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); }
  a:focus-visible, button:focus-visible { outline: 3px solid #fb923c; outline-offset: 2px; }
</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
