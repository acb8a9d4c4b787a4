import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

/** A destructive toast titled with the SPEC §8 message, explained by the server's message when it sent one. */
export function toastDriveFailure(title: string, error: unknown): void {
  toast({ variant: 'destructive', title, description: getServerMessage(error, 'Please try again.') });
}
