import type { ComponentProps } from 'react';
import { ALT_TEXT } from '@snapcracks/http-contract';
import { FormField } from '@/components/contact/form-field';
import { Textarea } from '@/components/ui/textarea';

/**
 * A photo's optional alt text, at upload and in the owner's edit: the label, a prompt saying what it is for, and how
 * much of the limit is used (the prompt and the count describe the field). `length` is the text's current length;
 * the rest goes to the textarea (react-hook-form's `register`, say).
 */
export function AltTextField({ id, length, error, ...textarea }: { id: string; length: number; error?: string } & ComponentProps<'textarea'>) {
  return (
    <FormField
      id={id}
      label="Alt text (optional)"
      description="Describe what the photo shows for people who can't see it."
      error={error}
      hint={`${length}/${ALT_TEXT.maxLength}`}
    >
      <Textarea rows={3} placeholder="For example: a long crack zigzags across a red brick wall, next to a drainpipe." {...textarea} />
    </FormField>
  );
}
