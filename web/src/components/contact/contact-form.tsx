import { useRef, useState, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { ContactMessageInput } from '@/lib/types';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  validateContactForm,
  type ContactFormErrors,
  type ContactFormField,
  type ContactFormValues,
} from './contact-form-schema';
import { FormField } from './form-field';

const FIELD_ORDER: ContactFormField[] = ['name', 'email', 'subject', 'message'];

export function ContactForm({
  initialValues,
  isSubmitting,
  onSubmit,
}: {
  initialValues: ContactFormValues;
  isSubmitting: boolean;
  onSubmit: (input: ContactMessageInput) => void;
}) {
  const [values, setValues] = useState<ContactFormValues>(initialValues);
  const [errors, setErrors] = useState<ContactFormErrors>({});
  // Errors appear on the first submit; after that they follow the typing so they clear as soon as fixed.
  const [wasSubmitted, setWasSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const update = (field: ContactFormField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (wasSubmitted) {
      const result = validateContactForm(next);
      setErrors(result.success ? {} : result.errors);
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setWasSubmitted(true);
    const result = validateContactForm(values);
    if (!result.success) {
      setErrors(result.errors);
      const firstInvalid = FIELD_ORDER.find((field) => result.errors[field]);
      if (firstInvalid) formRef.current?.querySelector<HTMLElement>(`#contact-${firstInvalid}`)?.focus();
      return;
    }
    setErrors({});
    onSubmit(result.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={handleSubmit} className="flex flex-col gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="contact-name" label="Full Name" error={errors.name}>
          <Input
            name="name"
            autoComplete="name"
            placeholder="Your name"
            value={values.name}
            onChange={(event) => update('name', event.target.value)}
          />
        </FormField>
        <FormField id="contact-email" label="Email Address" error={errors.email}>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={values.email}
            onChange={(event) => update('email', event.target.value)}
          />
        </FormField>
      </div>
      <FormField id="contact-subject" label="Subject" error={errors.subject}>
        <Input
          name="subject"
          placeholder="What is this about?"
          value={values.subject}
          onChange={(event) => update('subject', event.target.value)}
        />
      </FormField>
      <FormField
        id="contact-message"
        label="Message"
        error={errors.message}
        hint={`${values.message.length}/${CONTACT_MESSAGE_MAX_LENGTH}`}
      >
        <Textarea
          name="message"
          rows={6}
          placeholder="Tell us how we can help"
          value={values.message}
          onChange={(event) => update('message', event.target.value)}
        />
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full sm:w-fit">
        <Send aria-hidden="true" />
        {isSubmitting ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
