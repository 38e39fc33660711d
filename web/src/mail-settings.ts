// SPDX-License-Identifier: GPL-3.0-or-later
//
// The account page's e-mail section (docs/api.md, "E-mail"): the player's address, confirmed by the
// link of a mail sent to it, and the mails they want: when a correspondence opponent has moved, and a
// reminder when a third of the time for a move is left. Hidden when the server sends no mail (started
// without --smtp): GET /api/account/email says so. The address is shown to its owner only.

import { ApiError, errorText } from './api';
import { h } from './dom';

interface EmailReply {
  enabled: boolean;
  email?: string | null;
  confirmed?: boolean;
  moved?: boolean;
  reminder?: boolean;
}

/** A request of the e-mail API; its refusal as an ApiError with the server's sentence. */
async function call<T>(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<T> {
  const reply = await fetch(path, {
    method, credentials: 'same-origin', cache: 'no-store',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await reply.json().catch(() => null) as { error?: string } | null;
  if (!reply.ok) throw new ApiError(reply.status, data?.error ?? `The server answered ${reply.status}.`);
  return data as T;
}

/** The section, filled once the server has said whether it sends mail (hidden until then). */
export function emailSection(): HTMLElement {
  const input = h('input', { id: 'email-address', type: 'email', maxlength: 254, autocomplete: 'email', required: true });
  const save = h('button', { id: 'email-save', type: 'submit', class: 'primary' }, 'Send the link');
  const status = h('p', { id: 'email-status', class: 'hint mail-status', role: 'status' });
  const error = h('p', { id: 'email-error', class: 'error', role: 'alert' });
  const moved = h('input', { id: 'mail-moved', type: 'checkbox' });
  const reminder = h('input', { id: 'mail-reminder', type: 'checkbox' });
  const choices = h('fieldset', { class: 'mail-choices', hidden: true },
    h('legend', {}, 'Mail me'),
    h('label', { for: 'mail-moved' }, moved, 'when a correspondence opponent has moved'),
    h('label', { for: 'mail-reminder' }, reminder, 'when a third of my time for a move is left'));
  const form = h('form', { id: 'email-form', class: 'account-form', novalidate: true },
    h('label', { for: 'email-address' }, 'E-mail address'), h('div', { class: 'field-row' }, input, save));
  const box = h('section', { id: 'email', class: 'card', hidden: true },
    h('h2', {}, 'E-mail'),
    h('p', { class: 'hint' }, 'For your correspondence games. Nobody but you sees the address.'),
    form, status, choices, error);

  function show(r: EmailReply): void {
    box.hidden = !r.enabled;
    if (!r.enabled) return;
    input.value = r.email ?? '';
    status.textContent = !r.email ? 'No address yet.'
      : r.confirmed ? 'Confirmed.' : 'Not confirmed yet: follow the link of the mail sent to it.';
    choices.hidden = !r.email;
    moved.checked = r.moved ?? true;
    reminder.checked = r.reminder ?? true;
  }

  form.addEventListener('submit', async e => {
    e.preventDefault();
    error.textContent = '';
    save.disabled = true;
    try {
      const r = await call<EmailReply>('PUT', '/api/account/email', { email: input.value.trim() });
      show({ ...r, enabled: true, moved: moved.checked, reminder: reminder.checked });
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      save.disabled = false;
    }
  });
  const choose = async (): Promise<void> => {
    error.textContent = '';
    try {
      await call('PUT', '/api/account/notify', { moved: moved.checked, reminder: reminder.checked });
    } catch (err) {
      error.textContent = errorText(err);
    }
  };
  moved.addEventListener('change', () => void choose());
  reminder.addEventListener('change', () => void choose());
  call<EmailReply>('GET', '/api/account/email').then(show, err => {
    box.hidden = false;
    error.textContent = `The e-mail settings could not be loaded: ${errorText(err)}`;
  });
  return box;
}
