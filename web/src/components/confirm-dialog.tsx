import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';

export interface ConfirmDialogProps {
  /** The button that opens the dialog; left out when the dialog is opened by `open` alone. */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  /** The confirm button's words while the action runs; the confirm label stays without them. */
  pendingLabel?: ReactNode;
  /** A red confirm button, for what cannot be undone. */
  destructive?: boolean;
  /**
   * The confirmed action is running: the dialog stays open with both buttons disabled until it answers, so a
   * failure is not mistaken for success. Without it the dialog closes on confirm.
   */
  isPending?: boolean;
  onConfirm: () => void;
  /** Where focus goes on closing, when the dialog was not opened by `trigger`. */
  onCloseAutoFocus?: ComponentProps<typeof AlertDialogContent>['onCloseAutoFocus'];
}

/**
 * Asks before something consequential: a title, what will happen, Cancel and the confirm button. Cancel has focus
 * first and Escape cancels (Radix AlertDialog). Given `isPending`, the dialog waits for the action's answer.
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  destructive = false,
  isPending,
  onConfirm,
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  const waitsForAnswer = isPending !== undefined;
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!isPending) onOpenChange?.(next);
      }}
    >
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          {/* Names and file names can be one long word. */}
          <AlertDialogTitle className="wrap-anywhere">{title}</AlertDialogTitle>
          <AlertDialogDescription className="wrap-anywhere">{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            variant={destructive ? 'destructive' : 'default'}
            disabled={isPending}
            onClick={(event) => {
              if (waitsForAnswer) event.preventDefault();
              onConfirm();
            }}
          >
            {isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {isPending && pendingLabel ? pendingLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
