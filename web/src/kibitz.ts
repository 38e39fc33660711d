// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's kibitz box: the comments on the game, a field to write one, and the players'
// switch that allows or forbids them. Built with the game's id and the viewer's name; the page calls
// `load` when the event stream says the comments changed and `update` with each new state.

import { api, errorText, type GameState, type KibitzMessage } from './api';
import { h, fill } from './dom';
import { playerLink } from './player';

export class KibitzBox {
  readonly element: HTMLElement;
  private readonly list = h('ul', { id: 'kibitz-list' });
  private readonly text = h('input', { id: 'kibitz-text', type: 'text', maxlength: 500, placeholder: 'a comment', autocomplete: 'off' });
  private readonly send = h('button', { id: 'kibitz-send', type: 'submit' }, 'Send');
  private readonly sw = h('input', { id: 'kibitz-switch', type: 'checkbox' });
  private readonly swLabel = h('label', { class: 'check', hidden: true }, this.sw, 'Allow kibitzing');
  private readonly off = h('p', { id: 'kibitz-off', class: 'hint', hidden: true }, 'Kibitzing is off: the players have switched it off for this game.');
  private readonly error = h('p', { id: 'kibitz-error', class: 'error' });
  private messages: KibitzMessage[] = [];
  private destroyed = false;

  /** `changed` asks the page to read the game's state again (the switch was turned). A refused
   *  comment (kibitzing switched off, too long) is said in the box, under the form, where the writer
   *  looks. */
  constructor(private readonly id: string, private readonly me: string | null,
    private readonly changed: () => void) {
    const form = h('form', { class: 'kibitz-entry' }, this.text, this.send);
    form.addEventListener('submit', ev => {
      ev.preventDefault();
      void this.submit();
    });
    this.sw.addEventListener('change', () => void this.toggle());
    this.element = h('section', { class: 'card kibitz-box' }, h('h3', {}, 'Kibitz'), this.swLabel, this.off,
      this.list, form, this.error);
  }

  destroy(): void {
    this.destroyed = true;
  }

  private async submit(): Promise<void> {
    if (!this.text.value.trim()) return;
    this.error.textContent = '';
    this.send.setAttribute('disabled', '');
    try {
      await api.sendKibitz(this.id, this.text.value);
      this.text.value = '';
      await this.load();
    } catch (err) {
      this.error.textContent = errorText(err);
    } finally {
      this.send.removeAttribute('disabled');
    }
  }

  private async toggle(): Promise<void> {
    this.error.textContent = '';
    try {
      await api.switchKibitz(this.id, this.sw.checked);
    } catch (err) {
      this.error.textContent = errorText(err);
    }
    this.changed();
  }

  /** Reads the comments again. */
  async load(): Promise<void> {
    try {
      const reply = await api.kibitz(this.id);
      this.messages = reply.kibitz;
      this.renderList();
    } catch (e) {
      if (!this.destroyed) this.error.textContent = `The kibitz could not be loaded: ${errorText(e)}`;
    }
  }

  /** The switch and the field as the state says: who may write, whether kibitzing is on. */
  update(s: GameState): void {
    this.sw.checked = s.kibitz_enabled;
    this.swLabel.hidden = !s.you || s.status === 'over';
    this.off.hidden = s.kibitz_enabled;
    // Writing stays possible while kibitzing is off: the server's refusal then says why.
    const canWrite = !!this.me;
    this.text.disabled = !canWrite;
    this.send.disabled = !canWrite;
    this.text.placeholder = !this.me ? 'log in to comment' : s.kibitz_enabled ? 'a comment' : 'kibitzing is off';
  }

  private renderList(): void {
    const list = this.list;
    fill(list, ...this.messages.map(k => {
      const li = h('li', { class: 'kibitz' });
      // Strictly text: a comment is never markup.
      const name = h('span', { class: 'kibitz-name' });
      name.append(playerLink(k.name));
      const text = h('span', { class: 'kibitz-text' });
      text.textContent = k.text;
      const at = h('span', { class: 'kibitz-at' });
      at.textContent = new Date(k.at).toLocaleTimeString();
      li.append(name, ': ', text, ' ', at);
      return li;
    }));
    if (!this.messages.length) list.append(h('li', { class: 'hint' }, 'No comments yet.'));
    list.scrollTop = list.scrollHeight;
  }
}
