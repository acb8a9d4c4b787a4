import { useState } from 'react';
import { Mail } from 'lucide-react';
import { ContactForm } from '@/components/contact/contact-form';
import { ContactSuccess } from '@/components/contact/contact-success';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { toast } from '@/lib/toast';
import type { ContactMessageInput } from '@/lib/types';
import { getDisplayName } from '@/lib/user';
import { useSendContactMessageMutation } from '@/queries/contact';

export function ContactPage() {
  const { user } = useAuth();
  useDocumentTitle('Contact Us');
  const sendMessage = useSendContactMessageMutation({ title: 'Error', description: 'Failed to send message. Please try again.' });
  const [isSent, setIsSent] = useState(false);
  // A fresh form (after "Send Another Message") gets a new key so its state starts over.
  const [formKey, setFormKey] = useState(0);

  const submit = (input: ContactMessageInput) => {
    sendMessage.mutate(input, {
      onSuccess: () => {
        setIsSent(true);
        toast({ title: 'Message Sent!', description: "Thanks for reaching out. We'll reply by email soon." });
      },
    });
  };

  return (
    <PageContainer className="max-w-3xl">
      <PageHeader
        title="Contact Us"
        description="Questions, feedback or a problem with a photo? Send us a message and we will get back to you."
      />
      <Card className="mt-8">
        {isSent ? (
          <CardContent className="pt-6">
            <ContactSuccess
              onSendAnother={() => {
                sendMessage.reset();
                setFormKey((key) => key + 1);
                setIsSent(false);
              }}
            />
          </CardContent>
        ) : (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Mail className="size-5 text-primary" aria-hidden="true" />
                Send us a message
              </CardTitle>
              <CardDescription>All fields are required.</CardDescription>
            </CardHeader>
            <CardContent>
              <ContactForm
                key={formKey}
                initialValues={{
                  name: user ? getDisplayName(user, '') : '',
                  email: user?.email ?? '',
                  subject: '',
                  message: '',
                }}
                isSubmitting={sendMessage.isPending}
                onSubmit={submit}
              />
            </CardContent>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
