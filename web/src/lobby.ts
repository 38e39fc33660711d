// SPDX-License-Identifier: GPL-3.0-or-later
//
// The lobby: challenges received (Accept, Decline), the "New game" form and the
// player's games, challenges sent among them (Withdraw); the lists refresh by themselves while the
// page is visible. The form can be opened prefilled (`/?variant=..&options=..&fen=..`), which is how
// "New game from this position" on a game page reaches it.

import { api, ApiError, errorText, type Challenge, type GamesReply, type NewGameRequest, type Variant } from './api';
import { fill, h, navigate } from './dom';
import type { Page } from './main';
import { challenged, challengeRow, colorMark, gameRow, whenText } from './lobby-rows';
import { LobbyLists, seekApi, type SeekRequest } from './seeks';

/** The "New game" form's choices as kept in localStorage. */
interface NewGameChoices {
  variant: string;
  options: string;
  color: string;
  time: string;
  minutes: string;
  increment: string;
  days: string;
  opponent: string;
  level: string;
}
const CHOICES_KEY = 'ttchess.new-game';

/** How often the lobby asks for new challenges and moves while it is visible. */
const POLL_MS = 6000;

/** The lobby of a logged-in player: challenges received, the "New game" form and their games. */
export function showLobby(root: HTMLElement, me: string, first: GamesReply, params: URLSearchParams): Page {
  let alive = true;
  // Disabled until the variants arrive, so that nothing (a person or a test) picks from an empty list.
  const variant = h('select', { id: 'variant', required: true, disabled: true });
  const optionsHint = h('span', { class: 'hint', id: 'options-hint' });
  const options = h('input', { id: 'game-options', type: 'text', placeholder: 'e.g. forward=8', spellcheck: 'false' });
  const fen = h('input', { id: 'game-fen', type: 'text', placeholder: 'the standard start position', spellcheck: 'false' });
  const color = h('select', { id: 'color' },
    h('option', { value: 'white' }, 'white'), h('option', { value: 'black' }, 'black'), h('option', { value: 'random', selected: true }, 'random'));
  const timeKind = h('select', { id: 'time-kind' },
    h('option', { value: 'live', selected: true }, 'live'), h('option', { value: 'correspondence' }, 'correspondence'));
  const minutes = h('input', { id: 'minutes', type: 'number', min: 0, max: 600, value: 5, inputmode: 'numeric' });
  const increment = h('input', { id: 'increment', type: 'number', min: 0, max: 600, value: 3, inputmode: 'numeric' });
  const days = h('input', { id: 'days', type: 'number', min: 1, max: 30, value: 3, inputmode: 'numeric' });
  const opponentKind = h('select', { id: 'opponent-kind' },
    h('option', { value: 'player' }, 'a named player'), h('option', { value: 'seek' }, 'anyone (an open challenge in the lobby)'),
    h('option', { value: 'link' }, 'anyone with a link'), h('option', { value: 'engine' }, 'the engine'));
  const opponentName = h('input', {
    id: 'opponent-name', type: 'text', maxlength: 32, placeholder: 'their name', autocomplete: 'off',
    autocapitalize: 'none', spellcheck: 'false', 'aria-describedby': 'opponent-hint',
  });
  const level = h('input', { id: 'level', type: 'number', min: 1, max: 10, value: 3, inputmode: 'numeric' });
  const rated = h('input', { id: 'rated', type: 'checkbox', checked: true });
  const ratedField = h('label', { class: 'inline' }, rated, ' Rated (counts in both players’ ratings)');
  const create = h('button', { id: 'create-game', type: 'submit', class: 'primary' }, 'Create game');
  const error = h('p', { id: 'lobby-error', class: 'error', role: 'alert' });
  const notice = h('p', { id: 'lobby-notice', class: 'notice', role: 'status' });
  const liveFields = h('span', { class: 'inline' }, h('label', {}, 'Minutes', minutes), h('label', {}, 'Increment (s)', increment));
  const corrFields = h('span', { class: 'inline' }, h('label', {}, 'Days per move', days));
  const nameField = h('label', {}, 'Opponent’s name', opponentName);
  const nameHint = h('p', { class: 'hint', id: 'opponent-hint' },
    'Naming a player sends them a challenge: the game starts when they accept it.');
  const levelField = h('label', {}, 'Engine level (1–10)', level);

  const form = h('form', { id: 'new-game', class: 'card' },
    h('h2', {}, 'New game'),
    h('label', {}, 'Variant', variant),
    h('label', {}, 'Options', options), optionsHint,
    h('label', {}, 'Start FEN (optional)', fen),
    h('label', {}, 'Your colour', color),
    h('div', { class: 'row' }, h('label', {}, 'Time control', timeKind), liveFields, corrFields),
    h('div', { class: 'row' }, h('label', {}, 'Opponent', opponentKind), nameField, levelField), nameHint, ratedField,
    h('div', { class: 'buttons' }, create),
    error, notice);

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
    nameField.hidden = nameHint.hidden = opponentKind.value !== 'player';
    levelField.hidden = opponentKind.value !== 'engine';
    ratedField.hidden = opponentKind.value === 'engine'; // engine games are never rated
    create.textContent = opponentKind.value === 'player' ? 'Send challenge'
      : opponentKind.value === 'seek' ? 'Post open challenge' : 'Create game';
  }
  /** The form's last choices, kept in this browser (not the opponent's name or a start position). */
  function remember(): void {
    const kept: NewGameChoices = {
      variant: variant.value, options: options.value, color: color.value, time: timeKind.value,
      minutes: minutes.value, increment: increment.value, days: days.value, opponent: opponentKind.value, level: level.value,
    };
    try {
      localStorage.setItem(CHOICES_KEY, JSON.stringify(kept));
    } catch {
      // Without storage the form starts from its defaults next time.
    }
  }
  /** Puts the kept choices back, each only when it is still one the form offers. */
  function restore(): void {
    let kept: Partial<NewGameChoices> = {};
    try {
      kept = JSON.parse(localStorage.getItem(CHOICES_KEY) ?? '{}') as Partial<NewGameChoices>;
    } catch {
      kept = {};
    }
    const pick = (el: HTMLSelectElement, value: unknown): void => {
      if (typeof value === 'string' && Array.from(el.options).some(o => o.value === value)) el.value = value;
    };
    const number = (el: HTMLInputElement, value: unknown): void => {
      if (typeof value === 'string' && value !== '' && Number.isFinite(Number(value))) el.value = value;
    };
    // Gifford's game, live, is the default; a variant kept from before replaces it.
    if (!variants.some(v => v.name === kept.variant)) pick(variant, 'gifford');
    pick(variant, kept.variant);
    if (typeof kept.options === 'string' && kept.variant === variant.value) options.value = kept.options;
    pick(color, kept.color);
    pick(timeKind, kept.time);
    pick(opponentKind, kept.opponent);
    number(minutes, kept.minutes);
    number(increment, kept.increment);
    number(days, kept.days);
    number(level, kept.level);
    showTimeFields();
    showOpponentFields();
  }
  variant.addEventListener('change', showVariantOptions);
  timeKind.addEventListener('change', showTimeFields);
  opponentKind.addEventListener('change', showOpponentFields);
  showTimeFields();
  showOpponentFields();

  // Challenges received, at the top of the page as lichess shows them; hidden when there are none.
  const challengeError = h('p', { id: 'challenge-error', class: 'error', role: 'alert' });
  const challengeList = h('div', { id: 'challenge-list' });
  const challengeCount = h('span', { class: 'count' });
  const challengeBox = h('section', { id: 'challenges', class: 'card', 'aria-live': 'polite' },
    h('h2', {}, 'Challenges ', challengeCount), challengeList);
  const refreshError = h('p', { id: 'refresh-error', class: 'error', role: 'alert' });

  const list = h('div', { id: 'my-games' });
  const listBox = h('section', { class: 'card games-box' }, h('h2', {}, 'My games'), list);

  let latest: GamesReply = first;
  /** What the lists show, to redraw them only when the server's answer changed. */
  let shown = '';

  function challengeCard(c: Challenge): HTMLElement {
    const accept = h('button', { type: 'button', class: 'accept', 'data-id': c.id, 'aria-label': `Accept ${c.from}’s challenge` }, 'Accept');
    const decline = h('button', { type: 'button', class: 'decline', 'data-id': c.id, 'aria-label': `Decline ${c.from}’s challenge` }, 'Decline');
    const answer = async (how: 'accept' | 'decline'): Promise<void> => {
      challengeError.textContent = '';
      accept.disabled = decline.disabled = true;
      try {
        if (how === 'accept') {
          await api.accept(c.id);
          if (alive) navigate(`/games/${encodeURIComponent(c.id)}`);
          return;
        }
        await api.decline(c.id);
        if (!alive) return;
        notice.textContent = '';
        latest = { ...latest, challenges: (latest.challenges ?? []).filter(x => x.id !== c.id) };
        render();
      } catch (e) {
        if (!alive) return;
        challengeError.textContent = errorText(e);
        accept.disabled = decline.disabled = false;
      }
      void refresh();
    };
    accept.addEventListener('click', () => void answer('accept'));
    decline.addEventListener('click', () => void answer('decline'));
    const what = [c.title || titles.get(c.variant) || c.variant, c.time].filter(Boolean).join(' · ');
    return h('div', { class: 'challenge', 'data-id': c.id },
      h('div', { class: 'challenge-text' },
        h('div', { class: 'challenge-who' }, h('strong', { class: 'from' }, c.from), ' challenges you'),
        h('div', { class: 'challenge-what' }, what),
        h('div', { class: 'challenge-color' }, colorMark(c.color), `You play ${c.color}`,
          c.options ? h('span', { class: 'challenge-options' }, ` · ${c.options}`) : null),
        h('div', { class: 'challenge-when hint' }, whenText(c.created))),
      h('div', { class: 'challenge-buttons' }, accept, decline));
  }

  async function withdraw(id: string, button: HTMLButtonElement): Promise<void> {
    challengeError.textContent = '';
    button.disabled = true;
    try {
      await api.decline(id);
    } catch (e) {
      if (!alive) return;
      challengeError.textContent = errorText(e);
      button.disabled = false;
    }
    void refresh();
  }

  function render(): void {
    const challenges = latest.challenges ?? [];
    const key = JSON.stringify([latest.games, challenges, [...titles.keys()].length]);
    if (key === shown) return;
    shown = key;
    challengeBox.hidden = challenges.length === 0;
    challengeCount.textContent = challenges.length > 0 ? String(challenges.length) : '';
    fill(challengeList, ...challenges.map(challengeCard));

    // Challenges received are shown above; should the server list them among the games too, they
    // are left out there, so that a received one never offers its challenger's Withdraw.
    const received = new Set(challenges.map(c => c.id));
    const gs = latest.games.filter(g => !received.has(g.id));
    if (gs.length === 0) {
      fill(list, h('p', { class: 'hint' }, 'No games yet: create one.'));
      return;
    }
    // The server already sends "your move" games first; keep that order but make sure of it.
    const sorted = [...gs.filter(g => g.your_move), ...gs.filter(g => !g.your_move)];
    fill(list, ...sorted.map(g => g.status === 'challenge'
      ? challengeRow(g, me, titles, (id, b) => void withdraw(id, b))
      : gameRow(g, titles)));
  }

  form.addEventListener('submit', async e => {
    e.preventDefault();
    error.textContent = '';
    notice.textContent = '';
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
    if (opponentKind.value !== 'engine') req.rated = rated.checked;
    remember();
    create.disabled = true;
    if (opponentKind.value === 'seek') {
      try {
        const seek: SeekRequest = { variant: req.variant, color: req.color, rated: req.rated };
        if (req.options) seek.options = req.options;
        if (req.fen) seek.fen = req.fen;
        if (req.clock) seek.clock = req.clock;
        else seek.days_per_move = req.days_per_move;
        const reply = await seekApi.post(seek);
        if (!alive) return;
        lists.follow(reply.id);
        lists.refresh();
        notice.textContent = 'Your open challenge is listed in every lobby: the game starts as soon as someone accepts it.';
        notice.dataset.id = reply.id;
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        create.disabled = false;
      }
      return;
    }
    try {
      const reply = await api.createGame(req);
      if (reply.challenge) {
        // A challenge waits in the lobby, listed with the games, until its opponent answers.
        if (!alive) return;
        challenged.set(reply.id, req.opponent ?? '');
        notice.textContent = `Challenge sent to ${req.opponent}. It is listed in “My games” until they accept or decline it.`;
        notice.dataset.id = reply.id;
        await refresh();
        return;
      }
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

  // The open challenges and the games being played, live, beside the player's own.
  const lists = new LobbyLists({ me });
  fill(root, h('div', { class: 'lobby' },
    h('p', { class: 'greeting' }, `Welcome, ${me}.`),
    challengeError, refreshError, challengeBox, form,
    h('div', { class: 'lobby-side' }, listBox, lists.element)));
  render();

  api.variants().then(reply => {
    if (!alive) return;
    variants = reply.variants;
    for (const v of variants) titles.set(v.name, v.title);
    fill(variant, ...variants.map(v => h('option', { value: v.name }, `${v.title} (${v.name})`)));
    variant.disabled = false;
    restore();
    const wanted = params.get('variant');
    if (wanted && variants.some(v => v.name === wanted)) variant.value = wanted;
    if (params.has('options')) options.value = params.get('options') ?? '';
    if (params.has('fen')) fen.value = params.get('fen') ?? '';
    showVariantOptions();
    render();
    if (params.has('fen')) form.scrollIntoView();
  }).catch(e => {
    if (alive) error.textContent = `The variants could not be loaded: ${errorText(e)}`;
  });

  // The lists refresh by themselves while the page is visible (challenges arrive, opponents move),
  // and at once when the player comes back to the tab; a hidden tab asks nothing.
  let timer: number | undefined;
  let inFlight: Promise<void> | null = null;
  function refresh(): Promise<void> {
    inFlight ??= (async () => {
      try {
        const reply = await api.games();
        if (!alive) return;
        refreshError.textContent = '';
        latest = reply;
        render();
      } catch (e) {
        if (!alive) return;
        // The session ended elsewhere: the login page.
        if (e instanceof ApiError && e.status === 401) navigate('/');
        else refreshError.textContent = `The lists could not be refreshed: ${errorText(e)}`;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }
  function schedule(): void {
    window.clearTimeout(timer);
    timer = undefined;
    if (!alive || document.visibilityState === 'hidden') return;
    timer = window.setTimeout(() => void refresh().then(schedule), POLL_MS);
  }
  const onVisibility = (): void => {
    if (document.visibilityState === 'hidden') {
      window.clearTimeout(timer);
      timer = undefined;
    } else {
      void refresh().then(schedule);
    }
  };
  const onFocus = (): void => void refresh();
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', onFocus);
  schedule();
  return {
    destroy() {
      alive = false;
      lists.destroy();
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
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
