import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { Toaster } from '@/components/ui/toaster';
import { getToasts, TOAST_DURATION_MS, TOAST_LIMIT, toast } from './toast';

describe('toasts', () => {
  it('keeps at most one toast, the newest', () => {
    expect(TOAST_LIMIT).toBe(1);
    toast({ title: 'First' });
    toast({ title: 'Second' });
    expect(getToasts().map((item) => item.title)).toEqual(['Second']);
  });

  it('shows a toast for 5000 ms by default', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it('renders only the newest toast with its title and description', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Settings Updated', description: 'Email notifications disabled.' });
      toast({ variant: 'destructive', title: 'Unauthorized', description: 'You are logged out. Logging in again...' });
    });
    expect(screen.queryByText('Settings Updated')).not.toBeInTheDocument();
    expect(screen.getByText('Unauthorized')).toBeInTheDocument();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeInTheDocument();
  });
});

describe('toasts over a dialog', () => {
  function DialogWithToast() {
    return (
      <>
        <Dialog defaultOpen>
          <DialogContent>
            <DialogTitle>Photo by Una</DialogTitle>
            <button type="button" onClick={() => toast({ title: 'Vote Submitted' })}>
              Vote
            </button>
          </DialogContent>
        </Dialog>
        <Toaster />
      </>
    );
  }

  it('lets Escape close the dialog and keeps the toast a vote raised inside it', async () => {
    render(<DialogWithToast />);
    await userEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect(screen.getByText('Vote Submitted')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(getToasts().map((item) => [item.title, item.open])).toEqual([['Vote Submitted', true]]);
    // With no dialog left, Escape is the toast's again.
    await userEvent.keyboard('{Escape}');
    expect(getToasts().every((item) => !item.open)).toBe(true);
  });

  it('runs a toast action once when it is clicked', async () => {
    const onClick = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Approved', action: { label: 'Undo', altText: 'Undo the approval', onClick } });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
