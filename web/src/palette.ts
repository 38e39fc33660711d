// SPDX-License-Identifier: GPL-3.0-or-later
//
// The palette beside the board: what the player puts on the board from outside it. Chessgi's pockets
// (each side's pieces in hand, and the travellers with the move each returns at, in words), and a row
// of pieces for each kind of placement the mover has now: drops, pieces arriving from their travel,
// van Gog's arrivals from the future by piece type. A piece chosen, the board shows dots on the
// squares it may go to; a click there plays it (or, when it could come from several squares, the
// board then dots those).

import { otherColor, type Action, type Color, type GameNode, type KindInfo } from './api';
import { colored, dotShapes, frameShapes, parsePockets, pieceIcon, PIECE_NAMES } from './board';
import { fill, h } from './dom';
import { capital } from './game-info';

/** Pieces put on the board from beside it: which kinds of action, which square is clicked first, what
 *  the row is called; made from the kinds the state describes. */
interface PlacementGroup {
  name: string;
  label: string;
  kinds: Set<string>;
  /** The square chosen first: the target of a drop or arrival, the explosion square of an explosion. */
  first: 'to' | 'from';
}

/** The placement rows of a state's kinds, in the order the kinds come. */
function placementGroups(kinds: Record<string, KindInfo>): PlacementGroup[] {
  const groups = new Map<string, PlacementGroup>();
  for (const [name, k] of Object.entries(kinds)) {
    if (!k.place) continue;
    const g = groups.get(k.place.group);
    if (g) g.kinds.add(name);
    else groups.set(k.place.group, { name: k.place.group, label: k.place.label, kinds: new Set([name]), first: k.place.first });
  }
  return [...groups.values()];
}

interface Placement {
  group: PlacementGroup;
  piece: string;
  candidates: Action[];
  /** Set once the first square is chosen: the candidates are then told apart by the other square. */
  firstSquare: string | null;
}

/** Chessgi's travellers of a FEN (its seventh field, "N12,K6/-": White's, then Black's). */
export function travellers(fen: string): Record<Color, { piece: string; move: number }[]> | null {
  const field = fen.split(' ')[6];
  if (!field || !field.includes('/')) return null;
  const side = (part: string) => part === '-' ? [] : part.split(',').map(t => ({ piece: t.charAt(0), move: Number(t.slice(1)) }));
  const [w, b] = field.split('/');
  return { white: side(w), black: side(b ?? '-') };
}

/** The variant panel's lines, without what the palette shows (pockets, travellers) and without the
 *  command-line hints of the library's text ("'travel' lists the earlier positions"). */
export function panelLines(panels: string[], hasPockets: boolean): string[] {
  const text = panels.join('\n').replace(/\s*\('travel' lists\s+the earlier positions\)/, ' (pick an earlier position in the timelines)');
  return text.split('\n').filter(line => line && !(hasPockets && /^(White|Black) (pocket|travellers):/.test(line)));
}

export interface PaletteHost {
  /** The actions the player may make now (none while it is not their turn). */
  legal(): Action[];
  /** The actions that match a choice: one is played, several are offered. */
  offer(matches: Action[]): void;
  /** The palette's choice changed: the page draws the board again. */
  changed(): void;
}

export class Palette {
  readonly top = h('div', { id: 'pocket-top', class: 'pocket' });
  readonly bottom = h('div', { id: 'pocket-bottom', class: 'pocket' });
  readonly element = h('div', { id: 'placement', class: 'palette' });
  private placement: Placement | null = null;

  constructor(private readonly host: PaletteHost) {}

  /** Whether a piece of the palette is chosen (a click on the board then places it). */
  active(): boolean {
    return this.placement !== null;
  }

  cancel(): void {
    this.placement = null;
  }

  /** The dots of the chosen piece's squares (and the frame of the first square chosen). */
  shapes(): ReturnType<typeof dotShapes> {
    const p = this.placement;
    if (!p) return [];
    if (p.firstSquare === null) return dotShapes(p.candidates.map(a => a[p.group.first] ?? ''));
    const other = p.group.first === 'to' ? 'from' : 'to';
    return [...frameShapes([p.firstSquare]), ...dotShapes(p.candidates.map(a => a[other] ?? ''), '#2a5db0')];
  }

  /** A square clicked while a piece is chosen. */
  placeOn(key: string): void {
    const p = this.placement;
    if (!p) return;
    const other = p.group.first === 'to' ? 'from' : 'to';
    if (p.firstSquare === null) {
      const matches = p.candidates.filter(a => a[p.group.first] === key);
      if (matches.length === 0) {
        this.placement = null;
        this.host.changed();
        return;
      }
      const seconds = new Set(matches.map(a => a[other]));
      if (matches.length === 1 || seconds.size <= 1) {
        this.placement = null;
        this.host.offer(matches);
        return;
      }
      // Several actions put this piece here (a van Gog arrival from different squares, an explosion's
      // other square): the board dots the other squares.
      this.placement = { ...p, candidates: matches, firstSquare: key };
      this.host.changed();
      return;
    }
    const matches = p.candidates.filter(a => a[other] === key);
    if (matches.length === 0) return;
    this.placement = null;
    this.host.offer(matches);
  }

  private choose(group: PlacementGroup, piece: string): void {
    const active = this.placement?.group.name === group.name && this.placement.piece === piece;
    const candidates = this.host.legal().filter(a => !a.at_node && group.kinds.has(a.kind) && (a.piece ?? '').toUpperCase() === piece);
    this.placement = active ? null : { group, piece, candidates, firstSquare: null };
    this.host.changed();
  }

  /** The pockets of the node shown and the rows of the mover's placements, `bottom` being the side below. */
  update(kinds: Record<string, KindInfo>, toMove: Color, node: GameNode | undefined, bottom: Color): void {
    const legal = this.host.legal();
    const groups = placementGroups(kinds).map(g => ({ g, acts: legal.filter(a => !a.at_node && g.kinds.has(a.kind) && a.piece) }))
      .filter(x => x.acts.length);
    const pockets = node ? parsePockets(node.fen) : null;
    const travelling = node ? travellers(node.fen) : null;
    const pocketGroup = pockets ? groups.find(x => x.g.name === 'pocket') : undefined;
    if (!pockets) this.top.hidden = this.bottom.hidden = true;
    else {
      this.drawPocket(this.top, otherColor(bottom), pockets, travelling, toMove, pocketGroup);
      this.drawPocket(this.bottom, bottom, pockets, travelling, toMove, pocketGroup);
    }
    const rows = groups.filter(x => x !== pocketGroup).map(({ g, acts }) =>
      h('div', { class: 'placement-row', 'data-group': g.name }, h('span', { class: 'row-label' }, `${g.label}:`),
        ...this.pieceButtons(g, acts, toMove)));
    const p = this.placement;
    if (p) {
      const what = p.firstSquare === null
        ? (p.group.first === 'to' ? 'Click a dotted square to put it there.' : 'Click the explosion square.')
        : (p.group.first === 'to' ? 'Click the square it comes from.' : 'Click the other square.');
      const cancel = h('button', { type: 'button', class: 'link-button' }, 'cancel');
      cancel.addEventListener('click', () => {
        this.placement = null;
        this.host.changed();
      });
      rows.push(h('div', { class: 'hint placement-help' }, `${PIECE_NAMES[p.piece.toLowerCase()] ?? p.piece} chosen. ${what} `, cancel));
    }
    fill(this.element, ...rows);
    this.element.hidden = rows.length === 0;
  }

  /** One button per piece type of a placement group, with how many actions it has. */
  private pieceButtons(g: PlacementGroup, acts: Action[], toMove: Color): HTMLElement[] {
    return [...new Set(acts.map(a => (a.piece ?? '').toUpperCase()))].map(p => {
      const count = acts.filter(a => (a.piece ?? '').toUpperCase() === p).length;
      const active = this.placement?.group.name === g.name && this.placement.piece === p;
      const name = PIECE_NAMES[p.toLowerCase()] ?? p;
      const b = h('button', {
        type: 'button', class: active ? 'place active' : 'place', 'data-group': g.name, 'data-piece': p,
        title: `${name}: ${count} square${count === 1 ? '' : 's'}`, 'aria-label': `${g.label}: ${name}`, 'aria-pressed': String(active),
      }, pieceIcon(colored(p, toMove), toMove));
      b.addEventListener('click', () => this.choose(g, p));
      return b;
    });
  }

  /** A side's pocket: its pieces (buttons for the mover's droppable ones) and its travellers in words. */
  private drawPocket(el: HTMLElement, c: Color, pockets: Record<Color, string[]>, travelling: ReturnType<typeof travellers>,
    toMove: Color, group: { g: PlacementGroup; acts: Action[] } | undefined): void {
    el.hidden = false;
    const pieces = pockets[c];
    const droppable = c === toMove && group ? new Set(group.acts.map(a => (a.piece ?? '').toUpperCase())) : new Set<string>();
    const shown = group && c === toMove ? this.pieceButtons(group.g, group.acts, toMove) : [];
    const rest = pieces.filter(p => !droppable.has(p)).map(p => pieceIcon(p, c));
    const away = travelling?.[c] ?? [];
    const words = away.map(t => `${capital(PIECE_NAMES[t.piece.toLowerCase()] ?? t.piece)} returns at move ${t.move}`);
    fill(el, h('span', { class: 'pocket-label' }, `${capital(c)}'s pocket:`), ...shown, ...rest,
      !shown.length && !rest.length && !words.length ? h('span', { class: 'hint' }, ' empty') : null,
      words.length ? h('span', { class: 'travellers' }, ` ${words.join(', ')}`) : null);
  }
}
