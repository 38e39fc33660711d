// SPDX-License-Identifier: GPL-3.0-or-later
//
// The login page and the lobby: the "New game" form and the player's games. The form can be opened
// prefilled (`/?variant=..&options=..&fen=..`), which is how "New game from this position" on a game
// page reaches it.

import { api, errorText, type GameSummary, type NewGameRequest, type Variant } from './api';
import { appLink, fill, h, navigate } from './dom';
import type { Page } from './main';

/** Where to go after logging in: only a path of this site, never another site (`//evil`). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The name + password form; also used on a game page when a visitor follows an invitation. */
export function showLogin(root: HTMLElement, next: string | null, notice?: string): Page {
  const name = h('input', { id: 'login-name', type: 'text', autocomplete: 'username', maxlength: 32, required: true });
  const password = h('input', { id: 'login-password', type: 'password', autocomplete: 'current-password', maxlength: 256, required: true });
  const login = h('button', { id: 'login-button', type: 'submit' }, 'Log in');
  const register = h('button', { id: 'register-button', type: 'button' }, 'Register');
  const error = h('p', { id: 'login-error', class: 'error', role: 'alert' });
  const form = h('form', { id: 'login-form', class: 'card narrow' },
    h('h2', {}, 'Log in or register'),
    notice ? h('p', { class: 'notice' }, notice) : null,
    h('label', {}, 'Name', name),
    h('label', {}, 'Password', password),
    h('p', { class: 'hint' }, 'A name is 1–32 letters, digits, _ or -; a password 8–256 characters.'),
    h('div', { class: 'buttons' }, login, register),
    error);

  async function submit(how: 'login' | 'register'): Promise<void> {
    error.textContent = '';
    login.disabled = register.disabled = true;
    try {
      if (how === 'login') await api.login(name.value, password.value);
      else await api.register(name.value, password.value);
      navigate(safeNext(next));
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
  fill(root, form);
  name.focus();
  return { destroy() {} };
}

function seatName(name: string | null): string {
  return name ?? '(open seat)';
}

function gameRow(g: GameSummary, titles: Map<string, string>): HTMLElement {
  let status: string;
  if (g.status === 'over') status = [g.result, g.reason].filter(Boolean).join(' ');
  else if (g.status === 'waiting') status = 'waiting for an opponent';
  else status = `active, ply ${g.ply}`;
  const row = appLink(`/games/${encodeURIComponent(g.id)}`, { class: g.your_move ? 'game-row your-move' : 'game-row', 'data-id': g.id },
    h('span', { class: 'marker' }, g.your_move ? 'your move' : ''),
    h('span', { class: 'variant' }, titles.get(g.variant) ?? g.variant),
    h('span', { class: 'players' }, `${seatName(g.white)} – ${seatName(g.black)}`),
    h('span', { class: 'state' }, status),
    h('span', { class: 'kind' }, g.kind));
  return row;
}

/** The lobby of a logged-in player. */
export function showLobby(root: HTMLElement, me: string, games: GameSummary[], params: URLSearchParams): Page {
  // Disabled until the variants arrive, so that nothing (a person or a test) picks from an empty list.
  const variant = h('select', { id: 'variant', required: true, disabled: true });
  const optionsHint = h('span', { class: 'hint', id: 'options-hint' });
  const options = h('input', { id: 'game-options', type: 'text', placeholder: 'e.g. forward=8', spellcheck: 'false' });
  const fen = h('input', { id: 'game-fen', type: 'text', placeholder: 'the standard start position', spellcheck: 'false' });
  const color = h('select', { id: 'color' },
    h('option', { value: 'white' }, 'white'), h('option', { value: 'black' }, 'black'), h('option', { value: 'random', selected: true }, 'random'));
  const timeKind = h('select', { id: 'time-kind' },
    h('option', { value: 'correspondence' }, 'correspondence'), h('option', { value: 'live' }, 'live'));
  const minutes = h('input', { id: 'minutes', type: 'number', min: 0, max: 600, value: 5 });
  const increment = h('input', { id: 'increment', type: 'number', min: 0, max: 600, value: 3 });
  const days = h('input', { id: 'days', type: 'number', min: 1, max: 30, value: 3 });
  const opponentKind = h('select', { id: 'opponent-kind' },
    h('option', { value: 'player' }, 'a named player'), h('option', { value: 'link' }, 'anyone with a link'),
    h('option', { value: 'engine' }, 'the engine'));
  const opponentName = h('input', { id: 'opponent-name', type: 'text', maxlength: 32, placeholder: 'their name' });
  const level = h('input', { id: 'level', type: 'number', min: 1, max: 10, value: 3 });
  const create = h('button', { id: 'create-game', type: 'submit' }, 'Create game');
  const error = h('p', { id: 'lobby-error', class: 'error', role: 'alert' });
  const liveFields = h('span', { class: 'inline' }, h('label', {}, 'Minutes', minutes), h('label', {}, 'Increment (s)', increment));
  const corrFields = h('span', { class: 'inline' }, h('label', {}, 'Days per move', days));
  const nameField = h('label', {}, 'Opponent’s name', opponentName);
  const levelField = h('label', {}, 'Engine level (1–10)', level);

  const form = h('form', { id: 'new-game', class: 'card' },
    h('h2', {}, 'New game'),
    h('label', {}, 'Variant', variant),
    h('label', {}, 'Options', options), optionsHint,
    h('label', {}, 'Start FEN (optional)', fen),
    h('label', {}, 'Your colour', color),
    h('div', { class: 'row' }, h('label', {}, 'Time control', timeKind), liveFields, corrFields),
    h('div', { class: 'row' }, h('label', {}, 'Opponent', opponentKind), nameField, levelField),
    h('div', { class: 'buttons' }, create),
    error);

  const titles = new Map<string, string>();
  let variants: Variant[] = [];

  function showVariantOptions(): void {
    const v = variants.find(x => x.name === variant.value);
    optionsHint.textContent = !v ? '' : v.options
      ? `Options of ${v.name} (defaults): ${v.options}`
      : `${v.name} has no options.`;
    fen.placeholder = v ? v.start_fen : '';
  }
  function showTimeFields(): void {
    liveFields.hidden = timeKind.value !== 'live';
    corrFields.hidden = timeKind.value !== 'correspondence';
  }
  function showOpponentFields(): void {
    nameField.hidden = opponentKind.value !== 'player';
    levelField.hidden = opponentKind.value !== 'engine';
  }
  variant.addEventListener('change', showVariantOptions);
  timeKind.addEventListener('change', showTimeFields);
  opponentKind.addEventListener('change', showOpponentFields);
  showTimeFields();
  showOpponentFields();

  const list = h('div', { id: 'my-games' });
  const listBox = h('section', { class: 'card' }, h('h2', {}, 'My games'), list);
  function showGames(gs: GameSummary[]): void {
    if (gs.length === 0) {
      fill(list, h('p', { class: 'hint' }, 'No games yet: create one.'));
      return;
    }
    // The server already sends "your move" games first; keep that order but make sure of it.
    const sorted = [...gs.filter(g => g.your_move), ...gs.filter(g => !g.your_move)];
    fill(list, ...sorted.map(g => gameRow(g, titles)));
  }

  form.addEventListener('submit', async e => {
    e.preventDefault();
    error.textContent = '';
    const req: NewGameRequest = { variant: variant.value, color: color.value as NewGameRequest['color'] };
    if (options.value.trim()) req.options = options.value.trim();
    if (fen.value.trim()) req.fen = fen.value.trim();
    if (timeKind.value === 'live') req.clock = { minutes: Number(minutes.value), increment: Number(increment.value) };
    else req.days_per_move = Number(days.value);
    if (opponentKind.value === 'player') {
      if (!opponentName.value.trim()) {
        error.textContent = 'Name the opponent, or choose “anyone with a link” or the engine.';
        return;
      }
      req.opponent = opponentName.value.trim();
    } else if (opponentKind.value === 'engine') {
      req.level = Number(level.value);
    }
    create.disabled = true;
    try {
      const reply = await api.createGame(req);
      if (reply.invite_url) {
        // Only the create reply carries the invitation; keep it so the game page can show it again.
        const absolute = new URL(reply.invite_url, location.origin).href;
        try {
          localStorage.setItem(`ttchess.invite.${reply.id}`, absolute);
        } catch {
          // Without storage the link is still shown once, right after this navigation.
        }
        sessionInvites.set(reply.id, absolute);
      }
      navigate(reply.url);
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      create.disabled = false;
    }
  });

  fill(root, h('div', { class: 'lobby' }, h('p', { class: 'greeting' }, `Welcome, ${me}.`), form, listBox));
  showGames(games);

  let alive = true;
  api.variants().then(reply => {
    if (!alive) return;
    variants = reply.variants;
    for (const v of variants) titles.set(v.name, v.title);
    fill(variant, ...variants.map(v => h('option', { value: v.name }, `${v.title} (${v.name})`)));
    variant.disabled = false;
    const wanted = params.get('variant');
    if (wanted && variants.some(v => v.name === wanted)) variant.value = wanted;
    if (params.has('options')) options.value = params.get('options') ?? '';
    if (params.has('fen')) fen.value = params.get('fen') ?? '';
    showVariantOptions();
    showGames(games);
    if (params.has('fen')) form.scrollIntoView();
  }).catch(e => {
    if (alive) error.textContent = `The variants could not be loaded: ${errorText(e)}`;
  });

  // Coming back to the tab may find other players' moves: refresh the list then.
  const onFocus = (): void => {
    api.games().then(r => { if (alive) showGames(r.games); }).catch(e => { if (alive) error.textContent = errorText(e); });
  };
  window.addEventListener('focus', onFocus);
  return {
    destroy() {
      alive = false;
      window.removeEventListener('focus', onFocus);
    },
  };
}

/** Invitation links created in this page's life, for browsers that refuse localStorage. */
export const sessionInvites = new Map<string, string>();

/** The invitation link of a game this browser created, if it kept one. */
export function storedInvite(id: string): string | null {
  let link: string | null = null;
  try {
    link = localStorage.getItem(`ttchess.invite.${id}`);
  } catch {
    link = null;
  }
  return link ?? sessionInvites.get(id) ?? null;
}
