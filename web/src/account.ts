// SPDX-License-Identifier: GPL-3.0-or-later
//
// The account page (`/account`): the player's personal API tokens, with which scripts and bots use the
// API as them (`Authorization: Bearer <token>`), and their block list (a blocked player's challenges
// are refused). A new token's secret is in the reply that created it only, so the page shows it
// once, with a Copy button, and never again; every refusal of the API is shown with its sentence.

import { deleteAccountCard } from './account-delete';
import { api, errorText, timeMs, type NewToken, type TokenInfo } from './api';
import { appLink, fill, h } from './dom';
import { whenText } from './lobby-rows';
import { emailSection } from './mail-settings';
import type { Page } from './main';

/** A time in full, for a title attribute. */
function fullTime(t: number | string | null | undefined): string {
  const ms = timeMs(t);
  return ms === null ? '' : new Date(ms).toLocaleString();
}

export function showAccount(root: HTMLElement, me: string): Page {
  let alive = true;

  // ---- API tokens ----------------------------------------------------------------------------------
  const tokenLabel = h('input', {
    id: 'token-label', type: 'text', maxlength: 32, placeholder: 'e.g. my bot', autocomplete: 'off', required: true,
  });
  const tokenCreate = h('button', { id: 'token-create', type: 'submit', class: 'primary' }, 'Create token');
  const tokenError = h('p', { id: 'token-error', class: 'error', role: 'alert' });
  const newToken = h('div', { id: 'new-token', class: 'new-token', role: 'status', hidden: true });
  const tokenList = h('div', { id: 'token-list', class: 'account-list' });
  const tokenForm = h('form', { id: 'token-form', class: 'account-form', novalidate: true },
    h('label', { for: 'token-label' }, 'Label'),
    h('div', { class: 'field-row' }, tokenLabel, tokenCreate));

  const tokensBox = h('section', { id: 'tokens', class: 'card' },
    h('h2', {}, 'API tokens'),
    h('p', { class: 'hint' },
      'A token lets a script or a bot use the API as you: it sends the header ',
      h('code', {}, 'Authorization: Bearer <token>'), '. ',
      'Anyone who has a token can play as you: keep it secret, and revoke it when it is no longer needed.'),
    tokenForm, tokenError, newToken,
    h('h3', {}, 'Your tokens'),
    tokenList);

  function showNewToken(t: NewToken): void {
    // The token as text that wraps (all of it visible on a phone), selected whole by one tap or click.
    const value = h('code', { id: 'new-token-value', class: 'token-text', tabindex: 0, 'aria-label': `The token “${t.label}”` }, t.token);
    const selectToken = (): void => {
      const range = document.createRange();
      range.selectNodeContents(value);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    };
    value.addEventListener('focus', selectToken);
    const copy = h('button', { id: 'token-copy', type: 'button', class: 'primary' }, 'Copy');
    const copied = h('span', { id: 'token-copied', class: 'hint', role: 'status' });
    copy.addEventListener('click', async () => {
      try {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(t.token);
        copied.textContent = 'Copied.';
      } catch {
        // Without the clipboard API (a page served over plain http from another host), the text is
        // selected for the player to copy.
        selectToken();
        copied.textContent = 'Selected: copy it with Ctrl+C (or your phone’s Copy).';
      }
    });
    const done = h('button', { id: 'new-token-done', type: 'button' }, 'I have copied it');
    done.addEventListener('click', () => {
      newToken.hidden = true;
      fill(newToken);
    });
    fill(newToken,
      h('p', { class: 'new-token-head' }, 'Your new token ', h('strong', {}, `“${t.label}”`), ':'),
      h('div', { class: 'field-row' }, value, copy),
      copied,
      h('p', { class: 'warning', id: 'new-token-warning' },
        'Copy it now: it will not be shown again. If you lose it, revoke it and create another.'),
      h('div', { class: 'buttons' }, done));
    newToken.hidden = false;
    copy.focus();
  }

  function tokenRow(t: TokenInfo): HTMLElement {
    const revoke = h('button', { type: 'button', class: 'revoke danger' }, 'Revoke');
    const actions = h('div', { class: 'row-buttons' }, revoke);
    const row = h('div', { class: 'account-row token-row', 'data-id': String(t.id) },
      h('div', { class: 'row-text' },
        h('div', { class: 'token-label' }, t.label || '(no label)'),
        h('div', { class: 'hint token-dates' },
          h('span', { class: 'token-created', title: fullTime(t.created) }, `created ${whenText(t.created, 'at an unknown time')}`),
          ' · ',
          h('span', { class: 'token-used', title: fullTime(t.last_used) },
            t.last_used === null ? 'never used' : `last used ${whenText(t.last_used, 'at an unknown time')}`))),
      actions);
    // Revoking asks once more in the row itself: a script that uses the token stops working.
    revoke.addEventListener('click', () => {
      const confirm = h('button', { type: 'button', class: 'revoke-confirm danger' }, 'Revoke it');
      const keep = h('button', { type: 'button', class: 'revoke-cancel' }, 'Keep');
      fill(actions, h('span', { class: 'confirm-text' }, 'Scripts using it will be refused.'), confirm, keep);
      keep.addEventListener('click', () => fill(actions, revoke));
      confirm.addEventListener('click', async () => {
        tokenError.textContent = '';
        confirm.disabled = keep.disabled = true;
        try {
          await api.revokeToken(t.id);
        } catch (e) {
          if (!alive) return;
          tokenError.textContent = errorText(e);
          fill(actions, revoke);
        }
        await loadTokens();
      });
      confirm.focus();
    });
    return row;
  }

  async function loadTokens(): Promise<void> {
    try {
      const reply = await api.tokens();
      if (!alive) return;
      fill(tokenList, ...(reply.tokens.length === 0
        ? [h('p', { class: 'hint empty' }, 'No tokens yet.')]
        : reply.tokens.map(tokenRow)));
    } catch (e) {
      if (alive) tokenError.textContent = `The tokens could not be loaded: ${errorText(e)}`;
    }
  }

  tokenForm.addEventListener('submit', async e => {
    e.preventDefault();
    tokenError.textContent = '';
    const label = tokenLabel.value.trim();
    if (!label) {
      tokenError.textContent = 'Give the token a label, so that you know later which script uses it.';
      tokenLabel.focus();
      return;
    }
    tokenCreate.disabled = true;
    try {
      const t = await api.createToken(label);
      if (!alive) return;
      tokenLabel.value = '';
      // The list first, then the new token's box: a Revoke pressed as soon as the box shows must not
      // have its confirmation wiped by the list drawn again under it (loadTokens reports its own errors).
      await loadTokens();
      if (!alive) return;
      showNewToken(t);
    } catch (err) {
      if (alive) tokenError.textContent = errorText(err);
    } finally {
      tokenCreate.disabled = false;
    }
  });

  // ---- Block list ----------------------------------------------------------------------------------
  const blockName = h('input', {
    id: 'block-name', type: 'text', maxlength: 32, placeholder: 'their name', autocomplete: 'off',
    autocapitalize: 'none', spellcheck: 'false', required: true,
  });
  const blockAdd = h('button', { id: 'block-add', type: 'submit' }, 'Block');
  const blockError = h('p', { id: 'block-error', class: 'error', role: 'alert' });
  const blockList = h('div', { id: 'block-list', class: 'account-list' });
  const blockForm = h('form', { id: 'block-form', class: 'account-form', novalidate: true },
    h('label', { for: 'block-name' }, 'Block a player'),
    h('div', { class: 'field-row' }, blockName, blockAdd));
  const blocksBox = h('section', { id: 'blocks', class: 'card' },
    h('h2', {}, 'Blocked players'),
    h('p', { class: 'hint' }, 'A player you block cannot challenge you: their challenges are refused.'),
    blockForm, blockError, blockList);

  function blockRow(name: string): HTMLElement {
    const unblock = h('button', { type: 'button', class: 'unblock' }, 'Unblock');
    unblock.addEventListener('click', async () => {
      blockError.textContent = '';
      unblock.disabled = true;
      try {
        await api.unblock(name);
      } catch (e) {
        if (!alive) return;
        blockError.textContent = errorText(e);
        unblock.disabled = false;
      }
      await loadBlocks();
    });
    return h('div', { class: 'account-row block-row', 'data-name': name },
      h('div', { class: 'row-text block-name' }, name),
      h('div', { class: 'row-buttons' }, unblock));
  }

  async function loadBlocks(): Promise<void> {
    try {
      const reply = await api.blocks();
      if (!alive) return;
      fill(blockList, ...(reply.blocked.length === 0
        ? [h('p', { class: 'hint empty' }, 'You block nobody.')]
        : reply.blocked.map(blockRow)));
    } catch (e) {
      if (alive) blockError.textContent = `The block list could not be loaded: ${errorText(e)}`;
    }
  }

  blockForm.addEventListener('submit', async e => {
    e.preventDefault();
    blockError.textContent = '';
    const name = blockName.value.trim();
    if (!name) {
      blockError.textContent = 'Name the player to block.';
      blockName.focus();
      return;
    }
    blockAdd.disabled = true;
    try {
      await api.block(name);
      if (!alive) return;
      blockName.value = '';
      await loadBlocks();
    } catch (err) {
      if (alive) blockError.textContent = errorText(err);
    } finally {
      blockAdd.disabled = false;
    }
  });

  fill(root, h('div', { class: 'account' },
    h('div', { class: 'account-head' },
      h('h2', {}, 'Account'),
      h('p', { class: 'hint' }, 'Logged in as ', h('strong', {}, me), ' · ', appLink('/', { id: 'account-back' }, 'Back to my games'))),
    emailSection(), tokensBox, blocksBox, deleteAccountCard()));
  fill(tokenList, h('p', { class: 'hint' }, 'Loading…'));
  fill(blockList, h('p', { class: 'hint' }, 'Loading…'));
  void loadTokens();
  void loadBlocks();
  return {
    destroy() {
      alive = false;
    },
  };
}
