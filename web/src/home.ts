// SPDX-License-Identifier: GPL-3.0-or-later
//
// The visitor's home page, `/`: what ttchess is, the four games of time travel each with a board
// diagram of a position that shows what is special about it, a paragraph and a link to its rules;
// the open challenges and the games being played now (live, seeks.ts); and a compact login and
// registration form. "Play the computer" on a game starts a game against the engine at once for a
// player, and after the one step of registering (or logging in) for a visitor.

import { api, errorText } from './api';
import { appLink, fill, h, navigate } from './dom';
import { loginForm, safeNext } from './login';
import type { Page } from './main';
import { applyOptionClasses, loadOptions } from './options';
import { FenDiagrams } from './rules-page';
import { LobbyLists } from './seeks';

export interface GameIntro {
  variant: string;
  title: string;
  /** A position that shows the game's idea, as a FEN (with Time Traveler's marks, Chessgi's pocket). */
  fen: string;
  caption: string;
  text: string;
}

/** The four games of time travel, as a newcomer meets them. */
export const GAMES: GameIntro[] = [
  {
    variant: 'gifford',
    title: 'Gifford’s Time Travel Chess',
    fen: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/3K1N2/PPPP1PPP/RNBQKB1R',
    caption: 'A king went back in time: it stands on d3 beside its younger self on e1.',
    text: 'Gary K. Gifford’s game. A piece standing next to its king may be sent forward in time, up to '
      + '10 moves: it leaves the board and lands again, on an empty square of its choice, on the move you wrote. '
      + 'Twice a game a king may travel back up to 5 moves: the board is set back as it was then, a new '
      + 'timeline starts, and the king arrives in it beside its younger self.',
  },
  {
    variant: 'vangog',
    title: 'van Gog’s Time Travel Chess',
    fen: 'rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNBQKBNR',
    caption: '1. Qd1-d4*: a queen arrives from the future, and White has two queens.',
    text: 'Chung van Gog’s game (2022). A piece may arrive from the future (Qd1-d4*), as long as a piece of its '
      + 'kind later leaves by exactly that move into the past (Qd1-d4**) to keep history whole; a piece may also '
      + 'leave for the future (†) and reappear there (††). A side that leaves an obligation unmet loses.',
  },
  {
    variant: 'chessgi',
    title: 'Time Travel Chessgi',
    fen: 'rnb1kbnr/ppp1pppp/8/8/8/2N5/qPPP1PPP/R1BQKBNR[Ppp] w KQkq - 0 4',
    caption: 'Captured men go to the captor’s hand, to be dropped on the board later.',
    text: 'Jeremy Gabriel Good’s game (2007), on Chessgi, where what you capture joins your pocket and may be '
      + 'dropped back as your own. Every few moves a player may send a piece into the pocket until a later move, '
      + 'or make a general travel: back to an earlier position of the game, where a new timeline begins.',
  },
  {
    variant: 'travelers',
    title: 'Time Traveler’s Chess',
    fen: 'rnbqN"bnr/pppppppp/5N\'2/8/8/8/PPPPPPPP/RNBQKBNR',
    caption: '1. Nf6/e8: a knight explodes out of time. Its traveling self (\') stays on f6, its traveled '
      + 'self (") has taken the black king. Then 1… gxf6, and White loses.',
    text: 'The Time Travel Institute of Columbia’s game. Every man is untraveled, traveling or traveled. '
      + 'An explosion puts a traveling man and its traveled self on the board at once, supported by men that '
      + 'could reach the square; a traveling man cannot move until an untraveled one of its kind annihilates '
      + 'with it. Kings can be captured; what matters is that the position stays grammatically correct.',
  },
];

/** Starts a game against the engine (level 3, the player's colour drawn) and goes to it. */
async function playComputer(variant: string): Promise<void> {
  const reply = await api.createGame({ variant, color: 'random', level: 3 });
  navigate(reply.url);
}

export function showHome(root: HTMLElement, next: string | null): Page {
  applyOptionClasses(document.body, loadOptions());
  const diagrams = new FenDiagrams();
  /** What to do once the visitor has logged in or registered: where they were going, or a game. */
  let then: () => void = () => navigate(safeNext(next));
  const login = loginForm(() => then(), undefined, true);
  const error = h('p', { id: 'home-error', class: 'error', role: 'alert' });

  function askLogin(why: string, after: () => void): void {
    then = after;
    login.notice.textContent = why;
    login.notice.hidden = false;
    login.form.scrollIntoView({ block: 'center' });
    login.name.focus();
  }

  const cards = GAMES.map(g => {
    const play = h('button', { type: 'button', class: 'play-computer', 'data-variant': g.variant }, 'Play the computer');
    play.addEventListener('click', () => askLogin(
      `Log in, or register in one step, and your game of ${g.title} against the computer starts at once.`,
      () => {
        playComputer(g.variant).catch(e => {
          // Logged in all the same: the lobby, with the reason the game could not start.
          navigate('/');
          alert(errorText(e));
        });
      }));
    return h('article', { class: 'game-card card', 'data-variant': g.variant },
      diagrams.add(g.fen, g.caption),
      h('div', { class: 'game-card-text' },
        h('h3', {}, g.title),
        h('p', {}, g.text),
        h('p', { class: 'game-card-links' },
          appLink(`/rules/${g.variant}`, { class: 'rules-link', 'data-variant': g.variant }, 'The rules'), ' ',
          play)));
  });

  const lists = new LobbyLists({
    me: null,
    needLogin: s => askLogin(`Log in or register to accept ${s.from}’s open challenge: the lobby lists it with Accept.`,
      () => navigate('/')),
  });

  fill(root, h('div', { class: 'home' },
      h('section', { class: 'home-intro' },
        h('h1', {}, 'Chess with time travel'),
        h('p', { class: 'lead' },
          'ttchess plays four published games of chess in which pieces travel in time: sent forward to a later '
          + 'move, arriving from the future, going back to change the past. Each game follows its inventor’s '
          + 'text, quoted in its rules, and the board shows every timeline the game has made.'),
        h('p', {}, 'Play a friend live or by correspondence, post an open challenge for anyone, play the '
          + 'computer, or watch the games being played. No account is needed to watch, to read the rules or '
          + 'to use the ', appLink('/analysis', {}, 'analysis board'), '.'),
        error),
      login.form,
      h('section', { class: 'home-games', 'aria-label': 'The games' }, ...cards),
      lists.element));

  return {
    destroy() {
      diagrams.destroy();
      lists.destroy();
    },
  };
}
