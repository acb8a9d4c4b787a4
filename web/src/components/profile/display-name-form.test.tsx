import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { QueryWrapper } from '@/test/query-wrapper';
import { DisplayNameForm } from './display-name-form';

const SAVED = 'Crack Spotter';

describe('the display name form', () => {
  it('keeps an edit while the saved name stays the same, and starts again from a name saved elsewhere', async () => {
    const { rerender } = render(<DisplayNameForm user={makeUser({ displayName: SAVED })} />, { wrapper: QueryWrapper });
    const input = screen.getByLabelText('Display Name');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(input).toHaveValue(SAVED);
    expect(save).toBeDisabled();

    fireEvent.input(input, { target: { value: '' } });
    await waitFor(() => expect(save).toBeEnabled());
    // The same saved name in a new user object (a refetch): the edit stays.
    rerender(<DisplayNameForm user={makeUser({ displayName: SAVED })} />);
    expect(input).toHaveValue('');
    expect(save).toBeEnabled();

    // A new saved name (this form's save, or another tab's): the form starts from it.
    act(() => rerender(<DisplayNameForm user={makeUser({ displayName: 'Renamed Elsewhere' })} />));
    await waitFor(() => expect(input).toHaveValue('Renamed Elsewhere'));
    await waitFor(() => expect(save).toBeDisabled());
  });
});
