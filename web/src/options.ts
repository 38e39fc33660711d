// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rendering options of seed 001's page (orientation, scale, piece set, board colours, text
// diagram), remembered in localStorage so that they follow the visitor from game to game.

import type { Color } from './api';

export type Orientation = 'auto' | 'white' | 'black' | 'flip';
export type PieceSet = 'cburnett' | 'glyphs';
export type BoardColors = 'brown' | 'green' | 'blue' | 'grey';

export interface RenderOptions {
  orientation: Orientation;
  scale: number;
  pieces: PieceSet;
  colors: BoardColors;
  text: boolean;
}

const KEY = 'ttchess.render';
export const PIECE_SETS: PieceSet[] = ['cburnett', 'glyphs'];
export const COLOR_SCHEMES: BoardColors[] = ['brown', 'green', 'blue', 'grey'];
export const SCALE_MIN = 60;
export const SCALE_MAX = 140;

const DEFAULTS: RenderOptions = { orientation: 'auto', scale: 100, pieces: 'cburnett', colors: 'brown', text: false };

/** The stored options, each one checked, so that a stale or hand-edited entry falls back to the default. */
export function loadOptions(): RenderOptions {
  let stored: Partial<RenderOptions> = {};
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) stored = JSON.parse(raw) as Partial<RenderOptions>;
  } catch {
    stored = {};
  }
  const o = { ...DEFAULTS };
  if (stored.orientation && ['auto', 'white', 'black', 'flip'].includes(stored.orientation)) o.orientation = stored.orientation;
  if (typeof stored.scale === 'number' && stored.scale >= SCALE_MIN && stored.scale <= SCALE_MAX) o.scale = stored.scale;
  if (stored.pieces && PIECE_SETS.includes(stored.pieces)) o.pieces = stored.pieces;
  if (stored.colors && COLOR_SCHEMES.includes(stored.colors)) o.colors = stored.colors;
  if (typeof stored.text === 'boolean') o.text = stored.text;
  return o;
}

export function saveOptions(o: RenderOptions): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(o));
  } catch {
    // A browser that refuses storage (private mode) still renders; the choice is just not kept.
  }
}

/** The colour at the bottom of the board: `auto` is the player's own colour (white for spectators). */
export function bottomColor(o: RenderOptions, you: Color | null): Color {
  const own: Color = you ?? 'white';
  switch (o.orientation) {
    case 'white': return 'white';
    case 'black': return 'black';
    case 'flip': return own === 'white' ? 'black' : 'white';
    default: return own;
  }
}

/** Puts the piece-set and colour classes on the page root, where every board's CSS finds them. */
export function applyOptionClasses(root: HTMLElement, o: RenderOptions): void {
  for (const p of PIECE_SETS) root.classList.toggle(`pieces-${p}`, p === o.pieces);
  for (const c of COLOR_SCHEMES) root.classList.toggle(`colors-${c}`, c === o.colors);
}
