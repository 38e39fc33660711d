// SPDX-License-Identifier: GPL-3.0-or-later
//
// The board editor's position, read from and written to a FEN. It knows chess's six fields and the
// three places a game's own parts can stand (a mark after a piece's letter, pockets between brackets
// after the placement, fields after the six), all described by the library (Rules.fenParts); it
// knows no game. Whether a position can be used is the library's to say (Rules.checkFen): this only
// takes a FEN apart and puts it together.

import type { Color } from './api';
import type { FenPart } from './rules';

export const PIECE_LETTERS = 'KQRBNP';

export interface EditorPosition {
  /** Piece letters by square ("e1" → "K"). */
  pieces: Map<string, string>;
  /** A piece's mark by square ("f6" → "'"), for a game that marks pieces. */
  marks: Map<string, string>;
  /** Pocket counts by side and upper-case letter, for a game with pockets. */
  pockets: Record<Color, Record<string, number>>;
  turn: Color;
  /** Castling rights in FEN order, a subset of "KQkq" ('' for none). */
  castling: string;
  /** The en passant square, or '-'. */
  ep: string;
  halfmove: number;
  fullmove: number;
  /** The game's own fields by number (7, 8, ...), as written (a field per side: "White's/Black's"). */
  fields: Map<number, string>;
}

export function emptyPosition(): EditorPosition {
  return {
    pieces: new Map(), marks: new Map(), pockets: { white: {}, black: {} },
    turn: 'white', castling: '', ep: '-', halfmove: 0, fullmove: 1, fields: new Map(),
  };
}

export function copyPosition(p: EditorPosition): EditorPosition {
  return {
    ...p,
    pieces: new Map(p.pieces), marks: new Map(p.marks), fields: new Map(p.fields),
    pockets: { white: { ...p.pockets.white }, black: { ...p.pockets.black } },
  };
}

function partAt(parts: FenPart[], place: FenPart['place']): FenPart | undefined {
  return parts.find(p => p.place === place);
}

/** The squares a1..h8 of rank r (1..8) and file f (0..7). */
function square(file: number, rank: number): string {
  return String.fromCharCode(97 + file) + String(rank);
}

/** Reads a placement with its marks; a sentence when it is not 8 ranks of 8 squares. */
function readPlacement(text: string, marks: string, pos: EditorPosition): string | null {
  const rows = text.split('/');
  if (rows.length !== 8) return `the board has ${rows.length} ranks, not 8`;
  for (let r = 0; r < 8; r++) {
    const rank = 8 - r;
    let file = 0;
    let last: string | null = null;
    for (let i = 0; i < rows[r].length; i++) {
      const ch = rows[r][i];
      if (/\d/.test(ch)) {
        let n = ch;
        while (i + 1 < rows[r].length && /\d/.test(rows[r][i + 1])) n += rows[r][++i];
        file += Number(n);
        last = null;
      } else if (PIECE_LETTERS.includes(ch.toUpperCase())) {
        if (file > 7) return `rank ${rank} has more than 8 squares`;
        last = square(file++, rank);
        pos.pieces.set(last, ch);
      } else if (ch === '~') {
        // Fairy-Stockfish's mark of a promoted piece: no game here needs it.
      } else if (last && marks.includes(ch)) {
        pos.marks.set(last, ch);
      } else {
        return `'${ch}' on rank ${rank} is not a piece`;
      }
    }
    if (file !== 8) return `rank ${rank} has ${file} squares, not 8`;
  }
  return null;
}

function readPockets(text: string, letters: string, pos: EditorPosition): string | null {
  for (const ch of text) {
    const up = ch.toUpperCase();
    if (!letters.includes(up)) return `'${ch}' cannot be in a pocket`;
    const side: Color = ch === up ? 'white' : 'black';
    pos.pockets[side][up] = (pos.pockets[side][up] ?? 0) + 1;
  }
  return null;
}

/**
 * Takes a FEN apart for the editor: the position, or a sentence when it cannot even be read as a
 * board and fields (whether the position can be used is then the library's to say). Fields left
 * out take their usual values; the game's own fields are kept as written.
 */
export function readFen(fen: string, parts: FenPart[]): EditorPosition | string {
  const pos = emptyPosition();
  const f = fen.trim().split(/\s+/);
  if (!f[0]) return 'the FEN is empty';
  const m = /^([^[\]]*)(?:\[([^\]]*)\])?$/.exec(f[0]);
  if (!m) return 'the pockets must stand between brackets right after the board';
  const marks = partAt(parts, 'marks')?.values ?? '';
  const problem = readPlacement(m[1], marks, pos);
  if (problem) return problem;
  const pockets = partAt(parts, 'pockets');
  if (m[2] !== undefined) {
    if (!pockets) return 'this game has no pockets';
    const bad = readPockets(m[2], pockets.values, pos);
    if (bad) return bad;
  }
  if (f[1] && f[1] !== 'w' && f[1] !== 'b') return `the side to move is w or b, not '${f[1]}'`;
  pos.turn = f[1] === 'b' ? 'black' : 'white';
  pos.castling = f[2] && f[2] !== '-' ? 'KQkq'.split('').filter(c => f[2].includes(c)).join('') : '';
  pos.ep = f[3] ?? '-';
  pos.halfmove = f[4] !== undefined && /^\d+$/.test(f[4]) ? Number(f[4]) : 0;
  pos.fullmove = f[5] !== undefined && /^\d+$/.test(f[5]) ? Number(f[5]) : 1;
  for (let i = 6; i < f.length; i++) pos.fields.set(i + 1, f[i]);
  return pos;
}

/** A field per side's two halves: "P5,P8/Bb5" → ["P5,P8", "Bb5"]. */
export function splitSides(value: string | undefined, empty: string): [string, string] {
  if (value === undefined || value === '') return [empty, empty];
  const at = value.indexOf('/');
  return at < 0 ? [value, empty] : [value.slice(0, at), value.slice(at + 1)];
}

/** The value of a part's field, its empty value where it has none. */
export function fieldValue(pos: EditorPosition, part: FenPart): string {
  const value = pos.fields.get(part.field)?.trim();
  if (!part.per_side) return value || part.empty;
  const [white, black] = splitSides(value, part.empty);
  return `${white.trim() || part.empty}/${black.trim() || part.empty}`;
}

function writePlacement(pos: EditorPosition): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const sq = square(file, rank);
      const piece = pos.pieces.get(sq);
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += piece + (pos.marks.get(sq) ?? '');
    }
    rows.push(empty ? row + String(empty) : row);
  }
  return rows.join('/');
}

function writePockets(pos: EditorPosition, letters: string): string {
  let s = '';
  for (const side of ['white', 'black'] as Color[]) {
    for (const letter of letters) {
      const n = pos.pockets[side][letter] ?? 0;
      s += (side === 'white' ? letter : letter.toLowerCase()).repeat(n);
    }
  }
  return `[${s}]`;
}

/** Puts the position together as a FEN: chess's six fields, then every field of the game's own. */
export function writeFen(pos: EditorPosition, parts: FenPart[]): string {
  const pockets = partAt(parts, 'pockets');
  let fen = writePlacement(pos) + (pockets ? writePockets(pos, pockets.values) : '');
  fen += ` ${pos.turn === 'white' ? 'w' : 'b'} ${pos.castling || '-'} ${pos.ep || '-'} ${pos.halfmove} ${pos.fullmove}`;
  const fields = parts.filter(p => p.place === 'field');
  const last = Math.max(6, ...fields.map(p => p.field));
  for (let n = 7; n <= last; n++) {
    const part = fields.find(p => p.field === n);
    fen += ' ' + (part ? fieldValue(pos, part) : (pos.fields.get(n) || '-'));
  }
  return fen;
}
