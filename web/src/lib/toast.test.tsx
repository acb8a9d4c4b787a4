import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
