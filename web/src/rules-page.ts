// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rules page of a game, /rules/<variant>: docs/rules/<variant>.md (which the build copies into
// dist/rules/) rendered as HTML by `marked`, with a board diagram under every paragraph that gives a
// position in FEN, and the seed's own words (the docs quote them as block quotes) set apart.
// Also the small board diagrams of a FEN that the home page draws (FenDiagrams).
//
// The documents are the project's own, served by this server: they are rendered as markup; nothing a
// user wrote ever goes through here.

import { marked } from 'marked';
import type { Api } from 'chessgroundx/api';
import { makeViewBoard, markShapes } from './board';
import { appLink, fill, h } from './dom';
import type { Page } from './main';
import { applyOptionClasses, loadOptions } from './options';

/** The games with a rules page: the variant names of the route, their titles and their document. */
export const RULES: { name: string; title: string; doc: string }[] = [
  { name: 'gifford', title: 'Gifford’s Time Travel Chess', doc: 'gifford' },
  { name: 'vangog', title: 'van Gog’s Time Travel Chess', doc: 'vangog' },
  { name: 'chessgi', title: 'Time Travel Chessgi', doc: 'chessgi' },
  { name: 'travelers', title: 'Time Traveler’s Chess', doc: 'travelers' },
  { name: 'chess', title: 'Standard chess', doc: 'chess' },
];

/** The document of a variant's rules: the modes of van Gog and classic Chessgi share their game's. */
export function rulesDoc(variant: string): string | null {
  const base = variant.replace(/^vangog-(past|future)$/, 'vangog').replace(/^chessgi-classic$/, 'chessgi');
  return RULES.find(r => r.name === base)?.doc ?? null;
}

/** A FEN's first field: eight ranks of letters and digits, maybe with marks (' ") and a pocket. */
const FEN_RE = /^(?:[pnbrqkPNBRQK1-8'"~]+\/){7}[pnbrqkPNBRQK1-8'"~]+(?:\[[A-Za-z]*\])?(?:\s.*)?$/;

export function looksLikeFen(text: string): boolean {
  return FEN_RE.test(text.trim());
}

/**
 * The pieces of a FEN for chessground (standard letters only) and the marks of Time Traveler's
 * Chess that follow a piece (`N'` traveling, `N"` traveled), by square; the pocket after it.
 */
export function fenPicture(fen: string): { board: string; marks: Record<string, string>; pocket: string } {
  const field = fen.trim().split(/\s+/)[0];
  const pocket = /\[([A-Za-z]*)\]/.exec(field)?.[1] ?? '';
  const ranks = field.replace(/\[.*$/, '').split('/');
  const marks: Record<string, string> = {};
  const out: string[] = [];
  ranks.forEach((rank, i) => {
    let file = 0;
    let text = '';
    for (const c of rank) {
      if (/[1-8]/.test(c)) {
        file += Number(c);
        text += c;
      } else if (/[pnbrqkPNBRQK]/.test(c)) {
        file++;
        text += c;
      } else if ((c === '\'' || c === '"') && file > 0) {
        marks[`${String.fromCharCode(96 + file)}${8 - i}`] = c;
      }
    }
    out.push(text);
  });
  return { board: out.join('/'), marks, pocket };
}

/** Small boards showing FENs, drawn once their elements are in the page (chessground measures them). */
export class FenDiagrams {
  private boards: Api[] = [];
  private pending: { el: HTMLElement; fen: string }[] = [];
  private frame = 0;

  /** An element that will show the FEN's position, with a caption under it when given. */
  add(fen: string, caption?: string | Node): HTMLElement {
    const { pocket } = fenPicture(fen);
    const boardEl = h('div', { class: 'fen-board', role: 'img', 'aria-label': `diagram of the position ${fen}` });
    this.pending.push({ el: boardEl, fen });
    if (!this.frame) this.frame = requestAnimationFrame(() => this.draw());
    return h('figure', { class: 'fen-diagram' }, boardEl,
      pocket ? h('figcaption', { class: 'fen-pocket' }, `In hand: ${pocketWords(pocket)}`) : null,
      caption ? h('figcaption', {}, caption) : null);
  }

  private draw(): void {
    this.frame = 0;
    for (const { el, fen } of this.pending.splice(0)) {
      if (!el.isConnected) continue;
      const { board, marks } = fenPicture(fen);
      this.boards.push(makeViewBoard(el, board, 'white', markShapes(marks)));
    }
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    for (const b of this.boards) b.destroy();
    this.boards = [];
    this.pending = [];
  }
}

const PIECE_WORDS: Record<string, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** A pocket's letters in words: "White: queen, pawn; Black: rook". */
function pocketWords(pocket: string): string {
  const side = (letters: string[]): string => letters.map(l => PIECE_WORDS[l.toLowerCase()] ?? l).join(', ');
  const white = [...pocket].filter(c => c === c.toUpperCase());
  const black = [...pocket].filter(c => c !== c.toUpperCase());
  return [white.length ? `White ${side(white)}` : '', black.length ? `Black ${side(black)}` : ''].filter(Boolean).join('; ');
}

/** The links to every game's rules, the current one marked. */
function rulesNav(current: string | null): HTMLElement {
  return h('nav', { class: 'rules-nav', 'aria-label': 'Rules of the games' },
    ...RULES.map(r => r.name === current
      ? h('span', { class: 'current', 'aria-current': 'page' }, r.title)
      : appLink(`/rules/${r.name}`, { class: 'rules-link', 'data-variant': r.name }, r.title)));
}

/** After rendering: a diagram below each paragraph or list item that gives a FEN in code. */
function addDiagrams(doc: HTMLElement, diagrams: FenDiagrams): number {
  let count = 0;
  for (const code of Array.from(doc.querySelectorAll('code'))) {
    const fen = code.textContent ?? '';
    if (!looksLikeFen(fen)) continue;
    const block = code.closest('p, li, td, blockquote') ?? code;
    block.after(diagrams.add(fen, h('code', {}, fen.trim())));
    count++;
  }
  return count;
}

export function showRules(root: HTMLElement, variant: string): Page {
  applyOptionClasses(document.body, loadOptions());
  const doc = rulesDoc(variant);
  const diagrams = new FenDiagrams();
  let alive = true;
  const article = h('article', { id: 'rules-doc', class: 'rules-doc card' }, h('p', { class: 'loading' }, 'Loading the rules…'));
  fill(root, h('div', { class: 'rules-page' }, rulesNav(doc), article));
  if (!doc) {
    fill(article, h('p', { class: 'error', id: 'rules-error' },
      `There is no rules page for “${variant}”. The games are: ${RULES.map(r => r.name).join(', ')}.`));
    return { destroy() {} };
  }
  fetch(`/rules/${doc}.md`, { cache: 'no-cache' }).then(async reply => {
    if (!reply.ok) throw new Error(`the rules could not be loaded (${reply.status})`);
    const text = await reply.text();
    if (!alive) return;
    article.innerHTML = await marked.parse(text, { gfm: true });
    // The seed's own words are the documents' block quotes: labelled as such for a reader.
    for (const q of Array.from(article.querySelectorAll(':scope > blockquote, li > blockquote'))) q.classList.add('seed-words');
    addDiagrams(article, diagrams);
    const title = article.querySelector('h1')?.textContent;
    if (title) document.title = `${title} · ttchess`;
  }).catch(e => {
    if (alive) fill(article, h('p', { class: 'error', id: 'rules-error' }, String(e instanceof Error ? e.message : e)));
  });
  return {
    destroy() {
      alive = false;
      diagrams.destroy();
      document.title = 'ttchess';
    },
  };
}
