// SPDX-License-Identifier: GPL-3.0-or-later
//
// The login and registration form, on a page of its own (the account page asked by a visitor, a game
// page's invitation) or inside the home page, and where it leads once the visitor is logged in.

import { api, errorText } from './api';
import { fill, h, navigate } from './dom';
import type { Page } from './main';

/** Where to go after logging in: only a path of this site, never another site (`//evil`). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The name + password form and what it does: `done` runs once the visitor is logged in or registered. */
export function loginForm(done: () => void, notice?: string, compact = false): { form: HTMLFormElement; name: HTMLInputElement; notice: HTMLElement } {
  const name = h('input', { id: 'login-name', type: 'text', autocomplete: 'username', maxlength: 32, required: true });
  const password = h('input', { id: 'login-password', type: 'password', autocomplete: 'current-password', maxlength: 256, required: true });
  const login = h('button', { id: 'login-button', type: 'submit' }, 'Log in');
  const register = h('button', { id: 'register-button', type: 'button' }, 'Register');
  const error = h('p', { id: 'login-error', class: 'error', role: 'alert' });
  const noticeEl = h('p', { class: 'notice', id: 'login-notice', role: 'status' }, notice ?? '');
  noticeEl.hidden = !notice;
  const form = h('form', { id: 'login-form', class: compact ? 'card login-compact' : 'card narrow' },
    h('h2', {}, 'Log in or register'),
    noticeEl,
    h('label', {}, 'Name', name),
    h('label', {}, 'Password', password),
    h('p', { class: 'hint' }, compact
      ? 'New here? Choose a name and a password (8+ characters) and press Register: that is all.'
      : 'A name is 1–32 letters, digits, _ or -; a password 8–256 characters.'),
    h('div', { class: 'buttons' }, login, register),
    error);

  async function submit(how: 'login' | 'register'): Promise<void> {
    error.textContent = '';
    login.disabled = register.disabled = true;
    try {
      if (how === 'login') await api.login(name.value, password.value);
      else await api.register(name.value, password.value);
      done();
    } catch (e) {
      error.textContent = errorText(e);
    } finally {
      login.disabled = register.disabled = false;
    }
  }
  form.addEventListener('submit', e => {
    e.preventDefault();
    void submit('login');
  });
  register.addEventListener('click', () => void submit('register'));
  return { form, name, notice: noticeEl };
}

/** The login page alone (the account page asked by a visitor; a game page's invitation). */
export function showLogin(root: HTMLElement, next: string | null, notice?: string): Page {
  const { form, name } = loginForm(() => navigate(safeNext(next)), notice);
  fill(root, form);
  name.focus();
  return { destroy() {} };
}
