import { Loader2, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';

/**
 * The buttons under a dialog's form: Cancel, which closes the dialog, and the form's submit button with its icon,
 * both disabled while the form is sent, the submit button then spinning and saying what it is doing ("Saving...").
 */
export function DialogFormFooter({
  pending,
  icon: Icon,
  action,
  busy,
  destructive = false,
  className,
}: {
  pending: boolean;
  icon: LucideIcon;
  action: string;
  busy: string;
  destructive?: boolean;
  className?: string;
}) {
  return (
    <DialogFooter className={className}>
      <DialogClose asChild>
        <Button variant="outline" disabled={pending}>
          Cancel
        </Button>
      </DialogClose>
      <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Icon aria-hidden="true" />}
        {pending ? busy : action}
      </Button>
    </DialogFooter>
  );
}
