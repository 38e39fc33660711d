// SPDX-License-Identifier: GPL-3.0-or-later
//
// The single-page app of `ttchess serve`, routed on location.pathname: `/` is the home page for a
// visitor (the games, their rules, the open challenges and games being played, login) and the lobby
// for a player; `/rules/<variant>` a game's rules; `/games/<id>` is a game (with `?invite=<token>` an invitation);
// `/account` the player's API tokens and block list; `/@/<name>` a player's page; `/leaderboard` the
// best players of each game and speed; `/tournaments` the tournaments and `/tournaments/<id>` one of
// them, for anyone; `/analysis` the analysis board and `/editor` the board editor, for anyone (a
// visitor logs in only to play from a position).
// Each route asks the server who is logged in (GET /api/session), so that a session that ended
// elsewhere is noticed at the next navigation.

import { showAccount } from './account';
import { AnalysisPage } from './analysis';
import { api, ApiError, errorText, type GamesReply } from './api';
import { byId, fill, h, navigate, appLink } from './dom';
import { showEditor } from './editor';
import { GamePage } from './game';
import { prefetchGame } from './game-prefetch';
import { loadRules } from './rules';
import { showHome } from './home';
import { showLeaderboard } from './leaderboard';
import { showLobby } from './lobby';
import { showLogin } from './login';
import { showPlayer } from './player';
import { installThemeSwitch } from './theme'; // W6
import { showRules } from './rules-page';
import { showTournament } from './tournament';
import { showTournaments } from './tournaments-list';
import { followYourMove } from './yourmove';

export interface Page {
  destroy(): void;
}

let current: Page | null = null;
let routing = 0;
/** Set by logging out: the next route need not ask the server. */
let loggedOut = false;

/** Who is logged in, with their games and the challenges they received when `withGames` (the lobby
 *  and the account page show them), or null for a visitor. */
async function session(withGames: boolean): Promise<{ name: string; games?: GamesReply } | null> {
  const { name } = await api.session();
  if (name === null) return null;
  // A game, its rules, the analysis board and the editor need only the name: not waiting for the
  // list of games draws them a round trip sooner (the van Gog game page, cold, in README "Speed").
  if (!withGames) return { name };
  try {
    const games = await api.games();
    return { name: games.name, games };
  } catch (e) {
    // The session ended between the two requests.
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

function showHeader(name: string | null): void {
  const who = byId('who');
  const analysis = appLink('/analysis', { id: 'analysis-link' }, 'Analysis board');
  const rules = appLink('/rules/gifford', { id: 'rules-link' }, 'Rules');
  const editor = appLink('/editor', { id: 'editor-link' }, 'Board editor');
  const leaderboard = appLink('/leaderboard', { id: 'leaderboard-link' }, 'Leaderboards');
  const tournaments = appLink('/tournaments', { id: 'tournaments-link' }, 'Tournaments');
  if (!name) {
    fill(who, h('span', { class: 'who-links' }, tournaments, ' · ', rules, ' · ', leaderboard, ' · ', analysis, ' · ',
      editor));
    followYourMove(false);
    return;
  }
  const logout = h('button', { id: 'logout', type: 'button', class: 'link-button' }, 'Log out');
  logout.addEventListener('click', async () => {
    try {
      await api.logout();
    } catch (e) {
      alert(errorText(e));
      return;
    }
    loggedOut = true;
    navigate('/');
  });
  fill(who,
    h('span', { class: 'who-name' }, 'Logged in as ', h('strong', {}, name)),
    h('span', { class: 'who-links' },
      appLink('/', { id: 'lobby-link' }, 'My games'), ' · ',
      appLink('/account', { id: 'account-link' }, 'Account'), ' · ', tournaments, ' · ', rules, ' · ', leaderboard,
      ' · ', analysis, ' · ', editor, ' · ',
      logout));
  followYourMove(true);
}

async function route(): Promise<void> {
  const mine = ++routing;
  current?.destroy();
  current = null;
  const app = byId('app');
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const game = /^\/games\/([^/]+)\/?$/.exec(path);
  const rules = /^\/rules\/([^/]+)\/?$/.exec(path);
  const analysis = /^\/analysis\/?$/.test(path);
  const editor = /^\/editor\/?$/.test(path);
  const player = /^\/@\/([^/]+)\/?$/.exec(path);
  const leaderboard = /^\/leaderboard\/?$/.test(path);
  const tournament = /^\/tournaments\/(\d+)\/?$/.exec(path);
  const tournaments = /^\/tournaments\/?$/.test(path);
  // A game's state and the rules load while the server says who is logged in; an invitation is
  // joined first, so its page asks for the state after that.
  if (game && !params.has('invite') && !loggedOut) prefetchGame(decodeURIComponent(game[1]));
  // The analysis board and the editor run the rules in the page: their load starts now, while the
  // server says who is logged in, not after the page has been built (it is memoised: the page's own
  // call takes the same load).
  else if (analysis || editor) loadRules().catch(() => undefined);
  let me: { name: string; games?: GamesReply } | null;
  try {
    me = loggedOut ? null : await session(!(game || rules || analysis || editor || player || leaderboard ||
      tournament || tournaments));
    loggedOut = false;
  } catch (e) {
    fill(app, h('p', { class: 'error', id: 'route-error' }, errorText(e)));
    return;
  }
  // A later navigation may have started while this one waited for the server.
  if (mine !== routing) return;
  showHeader(me?.name ?? null);
  if (analysis) {
    // The analysis board needs no account: the rules and the engine run in the page.
    current = new AnalysisPage(app, params, me?.name ?? null);
  } else if (game) {
    current = new GamePage(app, decodeURIComponent(game[1]), params.get('invite'), me?.name ?? null);
  } else if (player) {
    // A player's page is for anyone (docs/api.md, "Players and the archive").
    current = showPlayer(app, decodeURIComponent(player[1]));
  } else if (rules) {
    // The rules are for anyone.
    current = showRules(app, decodeURIComponent(rules[1]));
  } else if (leaderboard) {
    // The leaderboards are for anyone.
    current = showLeaderboard(app, params);
  } else if (tournament) {
    current = showTournament(app, tournament[1], me?.name ?? null);
  } else if (tournaments) {
    current = showTournaments(app, me?.name ?? null);
  } else if (editor) {
    // The board editor needs no account: a visitor logs in only to play from the position.
    current = showEditor(app, params, me?.name ?? null);
  } else if (!me && /^\/account\/?$/.test(path)) {
    // A visitor who asked for the account page comes back to it after logging in.
    current = showLogin(app, '/account');
  } else if (!me) {
    current = showHome(app, params.get('next'));
  } else if (/^\/account\/?$/.test(path)) {
    current = showAccount(app, me.name);
  } else {
    current = showLobby(app, me.name, me.games!, params);
  }
}

window.addEventListener('popstate', () => void route());
window.addEventListener('ttchess:navigate', () => void route());
document.addEventListener('DOMContentLoaded', () => void route());
document.addEventListener('DOMContentLoaded', installThemeSwitch); // W6
