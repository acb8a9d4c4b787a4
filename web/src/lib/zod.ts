/**
 * zod for the web app: import `z` from here, never from 'zod' (ESLint enforces it).
 *
 * zod compiles object parsers with `new Function` where it may, and finds out whether it may by trying once; under
 * our Content Security Policy (no 'unsafe-eval') that try is a reported violation: a console error on every page
 * with a form and a Lighthouse best-practices finding. Our forms validate a few fields on submit, where compiled
 * parsers gain nothing, so parsing stays interpreted and the probe never runs.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
