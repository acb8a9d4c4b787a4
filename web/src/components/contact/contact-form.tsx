import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { ContactMessageInput } from '@/lib/types';
import { CONTACT_MESSAGE_MAX_LENGTH, contactFormSchema, type ContactFormValues } from './contact-form-schema';
import { FormField } from './form-field';

/**
 * The contact form (SPEC §5). Errors appear on the first submit; after that they follow the typing,
 * so each clears as soon as it is fixed. An invalid submit focuses the first invalid field.
 */
export function ContactForm({
  initialValues,
  isSubmitting,
  onSubmit,
}: {
  initialValues: ContactFormValues;
  isSubmitting: boolean;
  onSubmit: (input: ContactMessageInput) => void;
}) {
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(contactFormSchema),
    defaultValues: initialValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const messageLength = useWatch({ control, name: 'message' })?.length ?? 0;

  return (
    // The resolver hands over the trimmed values.
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values))} className="flex flex-col gap-5">
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="contact-name" label="Full Name" error={errors.name?.message}>
          <Input autoComplete="name" placeholder="Your name" {...register('name')} />
        </FormField>
        <FormField id="contact-email" label="Email Address" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...register('email')} />
        </FormField>
      </div>
      <FormField id="contact-subject" label="Subject" error={errors.subject?.message}>
        <Input placeholder="What is this about?" {...register('subject')} />
      </FormField>
      <FormField
        id="contact-message"
        label="Message"
        error={errors.message?.message}
        hint={`${messageLength}/${CONTACT_MESSAGE_MAX_LENGTH}`}
      >
        <Textarea rows={6} placeholder="Tell us how we can help" {...register('message')} />
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full sm:w-fit">
        <Send aria-hidden="true" />
        {isSubmitting ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
