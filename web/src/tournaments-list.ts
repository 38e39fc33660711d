// SPDX-License-Identifier: GPL-3.0-or-later
//
// The tournaments page (`/tournaments`): the tournaments upcoming, running and finished, and for a
// player a form to create one: an arena (live, a length in minutes: players are paired as they finish
// their games) or a round-robin (correspondence, the players invited by name).

import { api, errorText, type Variant } from './api';
import { appLink, fill, h, navigate } from './dom';
import type { Page } from './main';
import { tournamentApi, timeControl, type NewTournament, type TournamentSummary } from './tournaments-api';

function row(t: TournamentSummary): HTMLElement {
  const when = new Date(t.status === 'upcoming' ? t.starts_at : t.ends_at || t.starts_at);
  return h('li', { class: 'tournament-row' },
    appLink(`/tournaments/${t.id}`, { class: 'tournament-name' }, t.name),
    h('span', { class: 'hint' },
      ` ${t.kind === 'arena' ? 'Arena' : 'Round-robin'} · ${t.variant} · ${timeControl(t)} · `,
      `${t.players} player${t.players === 1 ? '' : 's'} · `,
      h('time', { datetime: when.toISOString() }, when.toLocaleString())));
}

function section(id: string, title: string, list: TournamentSummary[]): HTMLElement {
  return h('section', { class: 'card tournament-list', id },
    h('h2', {}, title),
    list.length ? h('ul', {}, ...list.map(row)) : h('p', { class: 'hint' }, 'None.'));
}

function numberInput(id: string, value: number, min: number, max: number): HTMLInputElement {
  return h('input', { id, type: 'number', value, min, max, required: true, inputmode: 'numeric' });
}

function labelled(id: string, text: string, input: HTMLElement): HTMLElement {
  return h('div', { class: 'tournament-field' }, h('label', { for: id }, text), input);
}

/** The create form; its variant list is filled from GET /api/variants. */
function createForm(): HTMLElement {
  const kind = h('select', { id: 't-kind' },
    h('option', { value: 'arena' }, 'Arena (live)'), h('option', { value: 'round-robin' }, 'Round-robin (correspondence)'));
  const name = h('input', { id: 't-name', type: 'text', maxlength: 60, required: true, value: 'Arena', autocomplete: 'off' });
  const variant = h('select', { id: 't-variant' });
  const minutes = numberInput('t-clock', 3, 1, 180);
  const increment = numberInput('t-increment', 2, 0, 180);
  const length = numberInput('t-minutes', 30, 1, 720);
  const days = numberInput('t-days', 3, 1, 30);
  const players = h('input', { id: 't-players', type: 'text', placeholder: 'names, separated by commas', autocomplete: 'off' });
  const startsIn = numberInput('t-starts', 5, 0, 43200);
  const error = h('p', { id: 't-error', class: 'error', role: 'alert' });
  const arenaFields = h('div', { class: 'tournament-fields' },
    labelled('t-clock', 'Clock (minutes)', minutes), labelled('t-increment', 'Increment (s)', increment),
    labelled('t-minutes', 'Length (minutes)', length));
  const robinFields = h('div', { class: 'tournament-fields', hidden: true },
    labelled('t-days', 'Days a move', days), labelled('t-players', 'Players', players));
  kind.addEventListener('change', () => {
    arenaFields.hidden = kind.value !== 'arena';
    robinFields.hidden = kind.value === 'arena';
  });
  api.variants().then(({ variants }) => {
    fill(variant, ...variants.map((v: Variant) => h('option', { value: v.name }, v.title)));
  }).catch(e => { error.textContent = errorText(e); });
  const submit = h('button', { id: 't-create', type: 'submit', class: 'primary' }, 'Create');
  const form = h('form', { id: 'tournament-form', class: 'tournament-form', novalidate: true },
    h('div', { class: 'tournament-fields' },
      labelled('t-kind', 'Kind', kind), labelled('t-name', 'Name', name), labelled('t-variant', 'Game', variant),
      labelled('t-starts', 'Starts in (minutes)', startsIn)),
    arenaFields, robinFields, h('div', {}, submit), error);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const arena = kind.value === 'arena';
    const req: NewTournament = {
      kind: arena ? 'arena' : 'round-robin', name: name.value.trim(), variant: variant.value,
      starts_in: Math.round(Number(startsIn.value) * 60),
      ...(arena
        ? { clock: { minutes: Number(minutes.value), increment: Number(increment.value) }, minutes: Number(length.value) }
        : { days_per_move: Number(days.value), players: players.value.split(',').map(s => s.trim()).filter(Boolean) }),
    };
    submit.disabled = true;
    try {
      const made = await tournamentApi.create(req);
      navigate(made.url);
    } catch (err) {
      error.textContent = errorText(err);
      submit.disabled = false;
    }
  });
  return h('section', { class: 'card', id: 'tournament-create' }, h('h2', {}, 'Create a tournament'), form);
}

export function showTournaments(root: HTMLElement, me: string | null): Page {
  let alive = true;
  const lists = h('div', { id: 'tournament-lists', class: 'tournament-lists' }, h('p', { class: 'hint' }, 'Loading…'));
  fill(root, h('div', { class: 'tournaments-page' },
    h('h1', {}, 'Tournaments'),
    h('p', { class: 'hint' },
      'Arenas are played live: players are paired as they finish their games, a win is 2 points, a draw 1, ',
      'and after two wins in a row every game counts double until one that is not a win. ',
      'Round-robins are played by correspondence: every pair of players plays twice, once with each colour.'),
    lists,
    me ? createForm() : h('p', { class: 'hint' }, appLink('/', {}, 'Log in'), ' to create or join a tournament.')));
  tournamentApi.list().then(l => {
    if (!alive) return;
    fill(lists, section('running', 'Running', l.running), section('upcoming', 'Upcoming', l.upcoming),
      section('finished', 'Finished', l.finished));
  }).catch(e => {
    if (alive) fill(lists, h('p', { class: 'error', role: 'alert' }, errorText(e)));
  });
  return { destroy() { alive = false; } };
}
