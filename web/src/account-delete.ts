// SPDX-License-Identifier: GPL-3.0-or-later
//
// The account page's last card: deleting one's account (DELETE /api/account, docs/api.md "Players and
// the archive"). Two steps, so that no click alone deletes anything: "Delete my account…" opens a
// form that says what happens and asks for the password again; its button deletes. The games stay,
// their player shown as "deleted", and the name is never free again. Done, the page goes home logged out.

import { ApiError, errorText } from './api';
import { h, navigate } from './dom';

async function deleteAccount(password: string): Promise<void> {
  const reply = await fetch('/api/account', {
    method: 'DELETE',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ password }),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (reply.ok) return;
  let sentence = `The server answered ${reply.status} to DELETE /api/account.`;
  try {
    sentence = ((await reply.json()) as { error?: string }).error ?? sentence;
  } catch { /* not JSON: the status says it */ }
  throw new ApiError(reply.status, sentence);
}

export function deleteAccountCard(): HTMLElement {
  const open = h('button', { id: 'delete-open', type: 'button' }, 'Delete my account…');
  const password = h('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', required: true });
  const confirm = h('button', { id: 'delete-confirm', type: 'submit', class: 'danger' }, 'Delete my account for good');
  const cancel = h('button', { id: 'delete-cancel', type: 'button' }, 'Cancel');
  const error = h('p', { id: 'delete-error', class: 'error', role: 'alert' });
  const form = h('form', { id: 'delete-form', class: 'account-form', hidden: true, novalidate: true },
    h('p', { id: 'delete-warning' },
      'Your login, sessions and API tokens are removed. Your games stay, with your name shown as “deleted”, ',
      'and nobody can register your name again. This cannot be undone.'),
    h('label', { for: 'delete-password' }, 'Your password'),
    h('div', { class: 'field-row' }, password, confirm, cancel), error);
  open.addEventListener('click', () => {
    form.hidden = false;
    open.hidden = true;
    password.focus();
  });
  cancel.addEventListener('click', () => {
    form.hidden = true;
    open.hidden = false;
    password.value = '';
    error.textContent = '';
  });
  form.addEventListener('submit', async e => {
    e.preventDefault();
    error.textContent = '';
    if (!password.value) {
      error.textContent = 'Give your password to delete your account.';
      password.focus();
      return;
    }
    confirm.disabled = true;
    try {
      await deleteAccount(password.value);
      navigate('/');
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      confirm.disabled = false;
    }
  });
  return h('section', { id: 'delete-account', class: 'card' }, h('h2', {}, 'Delete account'), open, form);
}
