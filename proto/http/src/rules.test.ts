import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as rules from './rules.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every sentence the rules hold (messages, not names or single words): each must be written here and nowhere else. */
function messages(value: unknown): string[] {
  if (typeof value === 'string') return / /.test(value) && value.length >= 12 ? [value] : [];
  if (typeof value === 'function') return messages((value as (n: number) => unknown)(0));
  if (value && typeof value === 'object') return Object.values(value).flatMap(messages);
  return [];
}

/** A spec limit written as a number where a rule is stated: a size in MB, a length or count bound. */
const LIMIT_LITERALS: Array<[RegExp, string]> = [
  [/\b(?:10|5|3)\s*\*\s*1024\s*\*\s*1024\b/, 'an upload size limit'],
  [/\.max\(\s*(?:50|500|2000)\s*[,)]/, 'a length limit'],
  [/maxLength=\{\s*\d+\s*\}/, 'a length limit'],
  [/\b(?:MAX|MIN)_[A-Z_]*(?:DESCRIPTION|DISPLAY_NAME|SUBJECT|REASON|BARS|PAGE|RATING|SEARCH|QUERY_LENGTH|PREVIEWS|RETRIES)[A-Z_]*\s*=\s*[\d_.]+\s*;/, 'a limit constant'],
  [/\b[A-Z_]*(?:POLL|TOAST_LIMIT|TOAST_DURATION|RETRY_DELAY|GALLERY_PAGE_SIZE|RECENT_APPROVED)[A-Z_]*\s*=\s*[\d_.]+\s*;/, 'a spec constant'],
];

/** The product's sources outside the contract: code that should import a rule, not restate it. Tests state the spec's texts on purpose. */
function productSources(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return files.filter(
    (file) =>
      file &&
      !file.startsWith('proto/http/') &&
      !file.startsWith('proto/gen/') &&
      !/(^|\/)(generated|testing|test|e2e|bench)\//.test(file) &&
      !/\.(test|int\.test|e2e\.test)\.tsx?$/.test(file) &&
      !file.endsWith('.d.ts'),
  );
}

describe("the spec's words", () => {
  it('are the contract\'s messages, exactly (spec §5)', () => {
    expect(rules.UPLOAD.refused).toBe('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
    expect(rules.UPLOAD.termsRequired).toBe('You must agree to the terms of service');
    expect(rules.REJECTION_REASON.required).toBe('Please provide a reason for rejection.');
    expect(rules.DISPLAY_NAME).toMatchObject({ required: 'Display name is required', tooLong: 'Display name must be 50 characters or less' });
    expect(rules.TERMS.required).toBe('You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue');
    expect(rules.CONTACT.name).toMatchObject({ required: 'Name is required', tooLong: 'Name must be 100 characters or less' });
    expect(rules.EMAIL).toMatchObject({ required: 'Email is required', invalid: 'Please enter a valid email address' });
    expect(rules.CONTACT.subject).toMatchObject({ required: 'Subject is required', tooLong: 'Subject must be 200 characters or less' });
    expect(rules.CONTACT.message).toMatchObject({ required: 'Message is required', tooLong: 'Message must be 2000 characters or less' });
    expect(rules.DESCRIPTION).toMatchObject({ required: 'Description is required', tooLong: 'Description must be 500 characters or less' });
    expect(rules.DRIVE_AUTHORIZATION.codeRequired).toBe('Please enter the authorization code');
  });

  it('state the limits the messages name (spec §5, §9)', () => {
    expect(rules.UPLOAD.maxBytes).toBe(10 * 1024 * 1024);
    expect([rules.DISPLAY_NAME.maxLength, rules.CONTACT.name.maxLength, rules.CONTACT.subject.maxLength, rules.CONTACT.message.maxLength, rules.DESCRIPTION.maxLength]).toEqual([50, 100, 200, 2000, 500]);
    expect([rules.RATING.min, rules.RATING.max, rules.GALLERY.pageSize, rules.GALLERY.pageButtons, rules.GALLERY.heroFetch, rules.GALLERY.heroShown]).toEqual([1, 5, 9, 5, 20, 4]);
    expect(rules.WEB).toMatchObject({ imageRetries: 3, imageRetryDelayMs: 1000, canvasQuality: 0.9, unauthorizedRedirectMs: 500, afterTermsRedirectMs: 100, adminPollMs: 5000, contactFormsPollMs: 30_000, toastLimit: 1, toastDurationMs: 5000, anchorOffsetPx: 80 });
    expect([rules.DASHBOARD.rankMinVotes, rules.DASHBOARD.recentPhotos, rules.PRIVACY_BARS.minKeptPercent]).toEqual([3, 5, 2]);
  });
});

describe('the rules', () => {
  const sources = productSources().map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

  it('are found in the repository (the scan is not empty)', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(messages(rules)).toContain(rules.DESCRIPTION.tooLong);
  });

  it.each(messages(rules).map((message) => [message]))('"%s" is written only in the contract', (message) => {
    const copies = sources.filter(({ text }) => text.includes(message)).map(({ file }) => file);
    expect(copies).toEqual([]);
  });

  it('no spec limit is written as a number outside the contract', () => {
    const copies = sources.flatMap(({ file, text }) =>
      LIMIT_LITERALS.flatMap(([pattern, what]) => {
        const line = text.split('\n').findIndex((candidate) => pattern.test(candidate));
        return line === -1 ? [] : [`${file}:${line + 1}: ${what}`];
      }),
    );
    expect(copies).toEqual([]);
  });
});
