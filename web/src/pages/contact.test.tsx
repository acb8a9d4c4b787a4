import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { validateContactForm } from '@/components/contact/contact-form-schema';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { renderApp } from '@/test/render-app';

const VALID = { name: 'Sam', email: 'sam@example.com', subject: 'Hello', message: 'A question about cracks' };

describe('contact form validation', () => {
  it('accepts a complete form and trims it', () => {
    const result = validateContactForm({ ...VALID, name: '  Sam  ' });
    expect(result).toEqual({ success: true, data: VALID });
  });

  it.each([
    ['name', '   ', 'Name is required'],
    ['name', 'x'.repeat(101), 'Name must be 100 characters or less'],
    ['email', '', 'Email is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['email', `${'a'.repeat(250)}@example.com`, 'Please enter a valid email address'],
    ['subject', '', 'Subject is required'],
    ['subject', 'x'.repeat(201), 'Subject must be 200 characters or less'],
    ['message', '', 'Message is required'],
    ['message', 'x'.repeat(2001), 'Message must be 2000 characters or less'],
  ] as const)('rejects %s %j with "%s"', (field, value, message) => {
    const result = validateContactForm({ ...VALID, [field]: value });
    expect(result).toEqual({ success: false, errors: { [field]: message } });
  });

  it('accepts values exactly at the limits', () => {
    const result = validateContactForm({
      ...VALID,
      name: 'x'.repeat(100),
      subject: 'x'.repeat(200),
      message: 'x'.repeat(2000),
    });
    expect(result.success).toBe(true);
  });
});

function renderContact(contactResponse: MockHandler) {
  const requests = mockFetch({
    'GET /api/auth/user': { status: 401, text: 'Unauthorized' },
    'POST /api/contact': contactResponse,
  });
  renderApp('/contact');
  return requests;
}

async function fillForm() {
  await userEvent.type(await screen.findByLabelText('Full Name'), VALID.name);
  await userEvent.type(screen.getByLabelText('Email Address'), VALID.email);
  await userEvent.type(screen.getByLabelText('Subject'), VALID.subject);
  await userEvent.type(screen.getByLabelText('Message'), VALID.message);
}

describe('contact page', () => {
  it('shows every required message on an empty submit and focuses the first field', async () => {
    const requests = renderContact({ body: {} });
    await userEvent.click(await screen.findByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    for (const message of ['Name is required', 'Email is required', 'Subject is required', 'Message is required']) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Full Name')).toHaveFocus();
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((request) => request.url === '/api/contact')).toBe(false);
  });

  it('clears a message once the field is fixed', async () => {
    renderContact({ body: {} });
    await userEvent.click(await screen.findByRole('button', { name: 'Send Message' }));
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'nope' } });
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'sam@example.com' } });
    await waitFor(() => expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Email Address')).not.toHaveAttribute('aria-invalid');
  });

  it('sends the message and shows the success screen', async () => {
    const requests = renderContact({ status: 201, body: { id: 1 } });
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('heading', { name: 'Message Sent!' })).toBeInTheDocument();
    expect(requests.find((request) => request.url === '/api/contact')?.json).toEqual(VALID);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');

    await userEvent.click(screen.getByRole('button', { name: 'Send Another Message' }));
    expect(screen.getByLabelText('Full Name')).toHaveValue('');
  });

  it('sends trimmed values and shows the length limits', async () => {
    const requests = renderContact({ status: 201, body: { id: 1 } });
    await userEvent.type(await screen.findByLabelText('Full Name'), '  Sam  ');
    await userEvent.type(screen.getByLabelText('Email Address'), ` ${VALID.email} `);
    await userEvent.type(screen.getByLabelText('Subject'), `${VALID.subject}   `);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2001/2000')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Message must be 2000 characters or less')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveFocus();

    fireEvent.change(screen.getByLabelText('Message'), { target: { value: `  ${VALID.message}\n` } });
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('heading', { name: 'Message Sent!' })).toBeInTheDocument();
    expect(requests.find((request) => request.url === '/api/contact')?.json).toEqual(VALID);
  });

  it.each([
    [500, 'boom'],
    [429, '{"message":"Too many requests. Please slow down and try again shortly."}'],
    [400, '{"message":"Name is required"}'],
  ])('keeps the form and toasts when sending fails with %i', async (status, text) => {
    renderContact({ status, text });
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(VALID.subject));
  });
});
