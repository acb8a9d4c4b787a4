import { createHash } from 'node:crypto';

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The `'sha256-…'` source that lets exactly this inline script run under the page's CSP. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * Pages load nothing from elsewhere. No `form-action`: browsers apply it to the redirects that follow a form
 * post too, and ours end at the app's callback on another origin.
 */
export function contentSecurityPolicy(scriptSources: readonly string[] = []): string {
  const script = scriptSources.length > 0 ? scriptSources.join(' ') : "'none'";
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${script}; base-uri 'none'; frame-ancestors 'none'`;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; display: grid; min-height: 100vh; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(24rem, 100% - 2rem); padding: 1.5rem; border: 1px solid GrayText; border-radius: 0.5rem; }
  h1 { font-size: 1.375rem; margin: 0 0 0.5rem; }
  .note { margin: 0 0 1.25rem; font-size: 0.9375rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  .hint { display: block; font-size: 0.875rem; font-weight: normal; }
  input { box-sizing: border-box; width: 100%; font: inherit; padding: 0.5rem; margin-top: 0.25rem; }
  input[aria-invalid="true"] { border: 2px solid #c5221f; }
  .error { color: #c5221f; font-weight: 600; margin: 0.25rem 0 0; }
  button { margin-top: 1.5rem; width: 100%; font: inherit; font-weight: 600; padding: 0.625rem; cursor: pointer; }
  :focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
`;

/** The shared document shell. `title` is plain text; `body` is trusted HTML built by the page functions. */
export function htmlDocument(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${head}
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
