import { Link } from 'react-router-dom';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

export function ContactSuccess({ onSendAnother }: { onSendAnother: () => void }) {
  return (
    <div role="status" className="flex flex-col items-center gap-4 py-8 text-center">
      <CheckCircle2 className="size-14 text-emerald-500" aria-hidden="true" />
      <h2 className="text-2xl font-bold">Message Sent!</h2>
      <p className="max-w-md text-muted-foreground">
        Thank you for reaching out. Our team will get back to you as soon as possible.
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        <Button variant="outline" onClick={onSendAnother}>
          Send Another Message
        </Button>
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
