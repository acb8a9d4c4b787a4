import { z } from 'zod';
import { parseConfig } from '@snapcracks/kit';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

const schema = z
  .object({
    /** An SMTP server for email notices, e.g. smtp://user:pass@mail.example:587 or smtps://…; unset: no email is sent. */
    SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'expected an smtp:// or smtps:// URL'),
    /** The sender of email notices, e.g. "Snap Cracks <no-reply@snapcracks.example>"; required with SMTP_URL. */
    SMTP_FROM: optionalText,
    /** The address people use (links in email notices). */
    PUBLIC_URL: optionalText,
  })
  .refine((c) => !c.SMTP_URL || c.SMTP_FROM, { message: 'SMTP_FROM is required with SMTP_URL', path: ['SMTP_FROM'] });

export type SupportConfig = z.output<typeof schema>;
export const loadSupportConfig = (env: Record<string, string | undefined> = process.env): SupportConfig => parseConfig(schema, env);
