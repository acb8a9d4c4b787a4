import { z } from 'zod';
import { PAGES } from './rules.js';

/** Text that must not be blank once trimmed: `required` when missing or blank, `tooLong` past `maxLength`. */
export function requiredText(rule: { maxLength: number; required: string; tooLong: string }) {
  return z.string({ error: rule.required }).trim().min(1, rule.required).max(rule.maxLength, rule.tooLong);
}

/**
 * A positive whole number in a path or query (`page=2`, `/photos/17`): digits only, so "1.5", "-1", " 2" or "1e3" are a
 * 400 and never a lookup. Documented as the integer it becomes.
 */
export function wholeNumber(message: string, max: number) {
  const digits = String(max).length;
  return z
    .string({ error: message })
    .regex(new RegExp(`^[1-9]\\d{0,${digits - 1}}$`), message)
    .transform(Number)
    .refine((n) => n <= max, message)
    .meta({ override: { type: 'integer', minimum: 1, maximum: max, pattern: undefined } });
}

/** `page` and `limit` of a list whose pages hold at most `limits.max` items. */
export function pageQuery(limits: { max: number; default: number }) {
  return z.object({
    page: wholeNumber(PAGES.pageInvalid, PAGES.maxPage).default(1).meta({ description: 'The page, from 1.' }),
    limit: wholeNumber(PAGES.limitInvalid(limits.max), limits.max)
      .default(limits.default)
      .meta({ description: `Items per page, at most ${limits.max}.` }),
  });
}

/** An instant as the API writes it: ISO 8601 in UTC, or null when unknown. */
export const timestamp = z.iso.datetime().nullable();

/** A raw body of bytes that must not be empty (an image posted as itself). */
export function nonEmptyBytes(message: string) {
  return z.custom<Uint8Array>((body) => body instanceof Uint8Array && body.byteLength > 0, { message });
}

/**
 * A page request as a service receives it over gRPC, already numbers: the message of its first problem, or undefined.
 * The gateway refuses the same with the schemas above before a call is made; this is the services' own check.
 */
export function pageProblem(page: number, limit: number, limits: { max: number }): string | undefined {
  if (!Number.isInteger(page) || page < 1 || page > PAGES.maxPage) return PAGES.pageInvalid;
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.max) return PAGES.limitInvalid(limits.max);
  return undefined;
}
