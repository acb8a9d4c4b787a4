import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from './confirm-dialog';

function Harness({ isPending, onConfirm }: { isPending?: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button>Delete</Button>}
      title="Delete this photo?"
      description="It will be gone for good."
      confirmLabel="Delete Photo"
      pendingLabel="Deleting..."
      destructive
      isPending={isPending}
      onConfirm={onConfirm}
    />
  );
}

describe('ConfirmDialog', () => {
  it('asks first, and Cancel does nothing but close', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this photo?' });
    expect(dialog).toHaveAccessibleDescription('It will be gone for good.');
    // The safe choice has focus first.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('closes on confirm when the action does not wait for an answer', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Photo' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('stays open on confirm when the action answers later', async () => {
    const onConfirm = vi.fn();
    render(<Harness isPending={false} onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Photo' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog', { name: 'Delete this photo?' })).toBeInTheDocument();
  });

  it('cannot be closed or confirmed again while the action runs', async () => {
    const { rerender } = render(<Harness isPending={false} onConfirm={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    rerender(<Harness isPending onConfirm={() => {}} />);
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});
