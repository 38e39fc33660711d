// SPDX-License-Identifier: GPL-3.0-or-later
//
// The glue between the game's data and chessgroundx: piece placements, marks drawn as small badges,
// highlighted squares, pockets read from Chessgi FENs, piece icons for the rows beside the board, and
// the text diagram. chessgroundx knows no chess; all legality comes from the server's `legal` list.

import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type { DrawShape } from 'chessgroundx/draw';
import type * as cg from 'chessgroundx/types';
import type { Color } from './api';

export type { Api as BoardApi };
export type Key = cg.Key;

export const FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

export const PIECE_NAMES: Record<string, string> = {
  k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn',
};

/** chessgroundx's role for a piece letter of either case: `N` → `n-piece`. */
export function roleOf(letter: string): cg.Role {
  return `${letter.toLowerCase()}-piece` as cg.Role;
}

export function isKey(s: string | null | undefined): s is cg.Key {
  return typeof s === 'string' && /^[a-h][1-8]$/.test(s);
}

/** The 8×8 grid of a FEN piece placement, rank 8 first, each square a letter or null. */
export function parsePlacement(board: string): (string | null)[][] {
  const rows = board.split(' ')[0].split('[')[0].split('/');
  const grid: (string | null)[][] = [];
  for (let r = 0; r < 8; r++) {
    const row: (string | null)[] = [];
    const text = rows[r] ?? '';
    let i = 0;
    while (i < text.length && row.length < 8) {
      const m = /^\d+/.exec(text.slice(i));
      if (m) {
        for (let n = 0; n < Number(m[0]) && row.length < 8; n++) row.push(null);
        i += m[0].length;
      } else {
        // A '~' (promoted) suffix belongs to the previous piece and is not a square.
        if (text[i] !== '~') row.push(text[i]);
        i++;
      }
    }
    while (row.length < 8) row.push(null);
    grid.push(row);
  }
  return grid;
}

/** The letter on a square of a placement, or null. */
export function pieceAt(board: string, key: string): string | null {
  if (!isKey(key)) return null;
  const grid = parsePlacement(board);
  return grid[8 - Number(key[1])][key.charCodeAt(0) - 97];
}

/** A placement with one piece put on a square, or emptied with '' (a travel chosen and not yet confirmed). */
export function placeOn(board: string, key: string, letter: string): string {
  const grid = parsePlacement(board);
  grid[8 - Number(key[1])][key.charCodeAt(0) - 97] = letter;
  return grid.map(row => {
    let s = '';
    let empty = 0;
    for (const sq of row) {
      if (sq === null || sq === '') {
        empty++;
      } else {
        if (empty) s += String(empty);
        empty = 0;
        s += sq;
      }
    }
    return empty ? s + String(empty) : s;
  }).join('/');
}

/** The pockets of a Chessgi FEN (`...RNBQKBNR[QNp] w ...`): upper case White's; null when the FEN has none. */
export function parsePockets(fen: string): Record<Color, string[]> | null {
  const placement = fen.split(' ')[0];
  const m = /\[([A-Za-z]*)\]/.exec(placement);
  if (!m) return null;
  const pockets: Record<Color, string[]> = { white: [], black: [] };
  for (const ch of m[1]) (ch === ch.toUpperCase() ? pockets.white : pockets.black).push(ch.toUpperCase());
  return pockets;
}

/** The letter of a piece of a colour: ('N', 'black') → 'n'. */
export function colored(letter: string, color: Color): string {
  return color === 'white' ? letter.toUpperCase() : letter.toLowerCase();
}

/** A piece drawn outside chessground, with the same classes so that the chosen piece set applies. */
export function pieceIcon(letter: string, color: Color): HTMLElement {
  const holder = document.createElement('span');
  holder.className = 'piece-icon';
  const piece = document.createElement('piece');
  piece.className = `${color} ${roleOf(letter)}`;
  holder.appendChild(piece);
  return holder;
}

const MARK_COLORS: Record<string, string> = { "'": '#b0306a', '"': '#2a5db0' };

/* A quote mark's stroke, drawn as a wedge (wide at the top, as the typeset mark is) centred on x,
 * in the badge's circle: a shape, not a glyph, so that no font can draw it elsewhere or cut it off. */
function markStroke(x: number): string {
  return `<path d="M${x - 5} 12h10l-3 24h-4z" fill="#fff"/>`;
}

/** A badge in the corner of each marked square (Time Traveler's Chess: ' traveling, " traveled):
 *  one stroke or two, in a disc of the mark's colour, legible from the smallest scale (60 %). */
export function markShapes(marks: Record<string, string>): DrawShape[] {
  const shapes: DrawShape[] = [];
  for (const [key, mark] of Object.entries(marks)) {
    if (!isKey(key)) continue;
    const fill = MARK_COLORS[mark] ?? '#6a4a00';
    const escaped = mark.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
    const inside = mark === "'" ? markStroke(76) : mark === '"' ? markStroke(69) + markStroke(83)
      : `<text x="76" y="35" font-size="32" font-weight="bold" text-anchor="middle" fill="#fff" font-family="sans-serif">${escaped}</text>`;
    shapes.push({
      orig: key,
      customSvg: `<circle cx="76" cy="24" r="22" fill="${fill}" stroke="#fff" stroke-width="3"/>${inside}`,
    });
  }
  return shapes;
}

/** A dot on each square where the chosen placement (drop, arrival, explosion) may go. */
export function dotShapes(keys: Iterable<string>, fill = '#1b7a2b'): DrawShape[] {
  const shapes: DrawShape[] = [];
  for (const key of new Set(keys)) {
    if (isKey(key)) shapes.push({ orig: key, customSvg: `<circle cx="50" cy="50" r="16" fill="${fill}" fill-opacity="0.6"/>` });
  }
  return shapes;
}

/** A frame around a square (the landing square of a king going back, the squares of a chosen action). */
export function frameShapes(keys: Iterable<string>, stroke = '#e68f00'): DrawShape[] {
  const shapes: DrawShape[] = [];
  for (const key of new Set(keys)) {
    if (isKey(key)) {
      shapes.push({
        orig: key,
        customSvg: `<rect x="4" y="4" width="92" height="92" fill="${stroke}" fill-opacity="0.25" stroke="${stroke}" stroke-width="8"/>`,
      });
    }
  }
  return shapes;
}

/** An interactive board; the caller configures it for each state with `board.set`. */
export function makeBoard(el: HTMLElement, config: Config): Api {
  return Chessground(el, {
    coordinates: true,
    autoCastle: true,
    disableContextMenu: true,
    addDimensionsCssVarsTo: el,
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 150 },
    premovable: { enabled: false },
    drawable: { enabled: false, visible: true },
    ...config,
  });
}

/** A small board that only shows a position. */
export function makeViewBoard(el: HTMLElement, board: string, orientation: Color, shapes: DrawShape[] = []): Api {
  return Chessground(el, {
    fen: board,
    orientation,
    viewOnly: true,
    coordinates: false,
    addDimensionsCssVarsTo: el,
    animation: { enabled: false },
    drawable: { enabled: false, visible: true, autoShapes: shapes },
  });
}

/** The board as text: ranks 8..1 (or 1..8 seen from Black), `.` for empty, each piece followed by its mark. */
export function textDiagram(board: string, marks: Record<string, string>, bottom: Color): string {
  const grid = parsePlacement(board);
  const ranks = bottom === 'white' ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const files = bottom === 'white' ? FILES : [...FILES].reverse();
  const lines: string[] = [];
  for (const rank of ranks) {
    let line = `${rank} `;
    for (const file of files) {
      const sq = grid[8 - rank][file.charCodeAt(0) - 97];
      line += ` ${sq ?? '.'}${marks[`${file}${rank}`] ?? ' '}`;
    }
    lines.push(line.trimEnd());
  }
  lines.push('   ' + files.join('  '));
  return lines.join('\n');
}
