// SPDX-License-Identifier: GPL-3.0-or-later
//
// The board editor, /editor (`?variant=&options=&fen=` opens a position): pieces dragged from a palette
// onto the board, moved, dragged off it or deleted; the side to move, castling, en passant, and each
// game's own parts of its FEN (marks on pieces, pockets, fields), which the library describes
// (Rules.fenParts), so that this page knows no game. The FEN follows every edit and can be typed; the
// library says why a position cannot be used (Rules.checkFen), and only a usable one can be analysed
// or played from. This file draws the page; editor-model.ts holds the position, its edits and its FEN.

import { EditorModel, type Tool } from './editor-model';
import type { Color } from './api';
import { errorText } from './api';
import { makeBoard, pieceIcon, roleOf, PIECE_NAMES } from './board';
import { copyPosition, splitSides, PIECE_LETTERS } from './editor_fen';
import { fill, h, navigate } from './dom';
import { applyOptionClasses, loadOptions, COLOR_SCHEMES, PIECE_SETS } from './options';
import { loadRules, type FenPart } from './rules';

export interface EditorPage {
  destroy(): void;
}

/** What a click on the board does: move pieces (drag), delete one, cycle a mark, or put a piece. */

const SIDES: Color[] = ['white', 'black'];

function sideName(c: Color): string {
  return c === 'white' ? 'White' : 'Black';
}

/** The letter of a piece of a colour: ('N', 'black') → 'n'. */
function letterOf(letter: string, color: Color): string {
  return color === 'white' ? letter.toUpperCase() : letter.toLowerCase();
}

export function showEditor(app: HTMLElement, params: URLSearchParams, me: string | null): EditorPage {
  const page = new Editor(app, params, me);
  return page;
}

class Editor extends EditorModel implements EditorPage {
  constructor(private app: HTMLElement, params: URLSearchParams, me: string | null) {
    super(params, me);
    applyOptionClasses(document.body, loadOptions());
    fill(app, h('p', { class: 'loading' }, 'Loading the rules…'));
    loadRules().then(rules => {
      if (this.destroyed) return;
      this.rules = rules;
      this.start();
    }, e => fill(app, h('p', { class: 'error', id: 'editor-load-error' }, errorText(e))));
  }

  destroy(): void {
    this.destroyed = true;
    window.removeEventListener('resize', this.onResize);
    this.board?.destroy();
    document.body.classList.remove(...PIECE_SETS.map(p => `pieces-${p}`), ...COLOR_SCHEMES.map(c => `colors-${c}`));
  }

  // ---- building the page ------------------------------------------------------------------------

  protected build(): void {
    const e = this.el;
    e.boardEl = h('div', { id: 'editor-board', class: 'editor-board' });
    e.paletteTop = h('div', { class: 'palette', id: 'palette-black' });
    e.paletteBottom = h('div', { class: 'palette', id: 'palette-white' });
    e.tools = h('div', { class: 'editor-tools', id: 'editor-tools', role: 'toolbar' });
    e.pockets = h('div', { class: 'editor-pockets', id: 'editor-pockets' });
    e.error = h('p', { class: 'editor-error', id: 'editor-error', role: 'status' });
    // A text area, so that a long FEN is seen whole on a phone; Enter does not add a line.
    e.fen = h('textarea', { id: 'editor-fen', rows: 3, spellcheck: 'false', autocomplete: 'off', 'aria-label': 'FEN' });
    e.fen.addEventListener('keydown', ev => { if (ev.key === 'Enter') ev.preventDefault(); });
    e.fen.addEventListener('input', () => this.typed((e.fen as HTMLTextAreaElement).value));
    e.analyse = h('button', { id: 'editor-analyse', type: 'button' }, 'Analyse');
    e.analyse.addEventListener('click', () => { if (this.usable) navigate(this.link('/analysis')); });
    e.play = h('button', { id: 'editor-play', type: 'button', class: 'primary' }, 'Play from here');
    e.play.addEventListener('click', () => this.playFromHere());
    e.controls = h('div', { class: 'editor-controls', id: 'editor-controls' });
    e.parts = h('div', { class: 'editor-parts', id: 'editor-parts' });

    const boardCol = h('div', { class: 'editor-board-col' },
      e.paletteTop, h('div', { class: 'board-wrap' }, e.boardEl), e.paletteBottom, e.tools, e.pockets, e.error);
    const side = h('div', { class: 'editor-side' },
      e.controls, e.parts,
      h('div', { class: 'card editor-fen-box' },
        h('label', { for: 'editor-fen' }, 'FEN'), e.fen,
        h('div', { class: 'buttons' }, e.analyse, e.play)));
    fill(this.app, h('div', { class: 'editor', id: 'editor' },
      h('h2', {}, 'Board editor'), h('div', { class: 'editor-main' }, boardCol, side)));

    this.board = makeBoard(e.boardEl, {
      orientation: this.orientation,
      movable: {
        free: true, color: 'both', showDests: false,
        events: {
          after: (orig, dest) => this.moved(orig, dest),
          afterNewPiece: (_piece, key) => { this.pos.marks.delete(key); },
        },
      },
      draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
      selectable: { enabled: true },
      highlight: { lastMove: false, check: false },
      animation: { enabled: false },
      events: { change: () => queueMicrotask(() => this.boardChanged()) },
    });
    // A tool other than "move" acts on the square pressed, before chessground can start a drag.
    for (const type of ['mousedown', 'touchstart'] as const)
      e.boardEl.addEventListener(type, ev => this.pressBoard(ev), { capture: true, passive: false });
    this.buildControls();
  }

  protected buildControls(): void {
    const e = this.el;
    const variant = h('select', { id: 'editor-variant' });
    for (const v of this.variants) variant.append(h('option', { value: v.name, selected: v.name === this.variant }, v.title));
    variant.addEventListener('change', () => this.changeVariant(variant.value));
    const options = h('input', { id: 'editor-options', type: 'text', spellcheck: 'false', value: this.options,
      placeholder: this.variants.find(v => v.name === this.variant)?.options || 'no options' });
    options.addEventListener('change', () => { this.options = options.value.trim(); this.check(true); });
    const turn = h('select', { id: 'editor-turn' },
      h('option', { value: 'white' }, 'White to move'), h('option', { value: 'black' }, 'Black to move'));
    turn.addEventListener('change', () => { this.pos.turn = turn.value as Color; this.edited(); });
    const castling = h('div', { class: 'castling', id: 'editor-castling' });
    for (const [right, words] of [['K', 'White O-O'], ['Q', 'White O-O-O'], ['k', 'Black O-O'], ['q', 'Black O-O-O']]) {
      const box = h('input', { type: 'checkbox', id: `castle-${right === right.toUpperCase() ? 'w' : 'b'}${right.toLowerCase()}`, 'data-right': right });
      box.addEventListener('change', () => {
        const rights = new Set(this.pos.castling.split(''));
        if ((box as HTMLInputElement).checked) rights.add(right); else rights.delete(right);
        this.pos.castling = 'KQkq'.split('').filter(c => rights.has(c)).join('');
        this.edited();
      });
      castling.append(h('label', { class: 'check' }, box, words));
    }
    const ep = h('select', { id: 'editor-ep' });
    ep.addEventListener('change', () => { this.pos.ep = ep.value; this.edited(); });
    const halfmove = h('input', { id: 'editor-halfmove', type: 'number', min: 0, max: 999, inputmode: 'numeric' });
    halfmove.addEventListener('change', () => { this.pos.halfmove = Math.max(0, Math.floor(Number(halfmove.value)) || 0); this.edited(); });
    const fullmove = h('input', { id: 'editor-fullmove', type: 'number', min: 1, max: 9999, inputmode: 'numeric' });
    fullmove.addEventListener('change', () => { this.pos.fullmove = Math.max(1, Math.floor(Number(fullmove.value)) || 1); this.edited(); });
    const startButton = h('button', { id: 'editor-start', type: 'button' }, 'Start position');
    startButton.addEventListener('click', () => { this.pos = this.startPosition(); this.showAll(); });
    const clearButton = h('button', { id: 'editor-clear', type: 'button' }, 'Clear board');
    clearButton.addEventListener('click', () => {
      const cleared = copyPosition(this.pos);
      cleared.pieces.clear();
      cleared.marks.clear();
      cleared.castling = '';
      cleared.ep = '-';
      this.pos = cleared;
      this.showAll();
    });
    const flipButton = h('button', { id: 'editor-flip', type: 'button' }, 'Flip board');
    flipButton.addEventListener('click', () => {
      this.orientation = this.orientation === 'white' ? 'black' : 'white';
      this.board?.set({ orientation: this.orientation });
      this.showPalettes();
    });
    Object.assign(this.el, { variant, options, turn, castling, ep, halfmove, fullmove });
    fill(e.controls, h('div', { class: 'card' },
      h('div', { class: 'editor-row' },
        h('label', {}, 'Game', variant),
        h('label', {}, 'Options', options)),
      h('div', { class: 'editor-row' },
        h('label', {}, 'Side to move', turn),
        h('label', {}, 'En passant', ep)),
      h('div', { class: 'editor-row' },
        h('fieldset', { class: 'castling-set' }, h('legend', {}, 'Castling'), castling)),
      h('div', { class: 'editor-row' },
        h('label', {}, 'Move number', fullmove),
        h('label', {}, 'Halfmove clock', halfmove)),
      h('div', { class: 'buttons' }, startButton, clearButton, flipButton)));
  }

  // ---- the game's own parts ---------------------------------------------------------------------

  /** A field of the game's own: one input, or one a side; the library's words beneath. */
  protected partField(part: FenPart): HTMLElement {
    const inputs = (part.per_side ? SIDES : [null]).map(side => {
      const id = `part-${part.name}${side ? '-' + side : ''}`;
      const input = h('input', { id, type: 'text', spellcheck: 'false', autocomplete: 'off',
        placeholder: `${part.example}`, 'data-part': part.name, title: part.words }) as HTMLInputElement;
      input.addEventListener('input', () => this.partTyped(part));
      // A field of both sides is named by the part's label above it, which is no <label>: say it to a screen reader.
      if (!side) input.setAttribute('aria-label', part.label);
      return side ? h('label', { class: 'part-side' }, sideName(side), input) : input;
    });
    return h('div', { class: 'part', 'data-part': part.name },
      h('div', { class: 'part-label' }, part.label),
      h('div', { class: 'part-inputs' }, ...inputs),
      h('div', { class: 'hint' }, `${part.words} (e.g. ${part.example})`));
  }

  protected partTyped(part: FenPart): void {
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value.trim() ?? '';
    if (part.per_side) {
      const white = value(`part-${part.name}-white`) || part.empty, black = value(`part-${part.name}-black`) || part.empty;
      this.pos.fields.set(part.field, `${white}/${black}`);
    } else {
      this.pos.fields.set(part.field, value(`part-${part.name}`) || part.empty);
    }
    this.edited();
  }

  protected buildParts(): void {
    const fields = this.parts.filter(p => p.place === 'field');
    const marks = this.parts.find(p => p.place === 'marks');
    const pockets = this.parts.find(p => p.place === 'pockets');
    const notes: HTMLElement[] = [];
    if (marks) notes.push(h('p', { class: 'hint', id: 'marks-help' },
      `${marks.label}: choose "Mark" below the board and click a piece to cycle its mark; ${marks.words}.`));
    if (pockets) notes.push(h('p', { class: 'hint' }, `${pockets.label}: ${pockets.words}.`));
    fill(this.el.parts, fields.length || notes.length
      ? h('div', { class: 'card' }, h('h3', {}, 'This game\'s own parts'), ...notes, ...fields.map(p => this.partField(p)))
      : null);
  }

  protected showParts(): void {
    for (const part of this.parts.filter(p => p.place === 'field')) {
      const raw = this.pos.fields.get(part.field);
      const set = (id: string, v: string) => {
        const input = document.getElementById(id) as HTMLInputElement | null;
        // An empty field shows its example as the placeholder rather than the empty value's "-".
        if (input && document.activeElement !== input) input.value = v === part.empty ? '' : v;
      };
      if (part.per_side) {
        const [white, black] = splitSides(raw, part.empty);
        set(`part-${part.name}-white`, white);
        set(`part-${part.name}-black`, black);
      } else {
        set(`part-${part.name}`, raw ?? part.empty);
      }
    }
  }

  // ---- palettes, tools and pockets ------------------------------------------------------------

  protected paletteRow(color: Color): HTMLElement[] {
    return PIECE_LETTERS.split('').map(letter => {
      const piece = letterOf(letter, color);
      const active = this.tool.kind === 'piece' && this.tool.letter === piece;
      const button = h('button', { type: 'button', class: `spare${active ? ' active' : ''}`, 'data-piece': piece,
        title: `${sideName(color)} ${PIECE_NAMES[letter.toLowerCase()]}: drag onto the board, or click and then click squares` },
      pieceIcon(letter, color));
      const press = (ev: MouseEvent | TouchEvent) => {
        if (ev instanceof MouseEvent && ev.button !== 0) return;
        ev.preventDefault();
        this.setTool(active ? { kind: 'move' } : { kind: 'piece', letter: piece });
        this.board?.dragNewPiece({ role: roleOf(letter), color }, false, ev as never, true);
      };
      button.addEventListener('mousedown', press);
      button.addEventListener('touchstart', press, { passive: false });
      return button;
    });
  }

  protected showPalettes(): void {
    const top: Color = this.orientation === 'white' ? 'black' : 'white';
    fill(this.el.paletteTop, ...this.paletteRow(top));
    fill(this.el.paletteBottom, ...this.paletteRow(top === 'white' ? 'black' : 'white'));
    this.el.paletteTop.id = `palette-${top}`;
    this.el.paletteBottom.id = `palette-${top === 'white' ? 'black' : 'white'}`;
    const tool = (kind: Tool['kind'], label: string, title: string) => {
      const b = h('button', { type: 'button', id: `tool-${kind}`, class: this.tool.kind === kind ? 'active' : '', title,
        'aria-pressed': String(this.tool.kind === kind) }, label);
      b.addEventListener('click', () => this.setTool({ kind } as Tool));
      return b;
    };
    const marks = this.parts.find(p => p.place === 'marks');
    fill(this.el.tools,
      tool('move', 'Move', 'drag pieces on the board; drag one off the board to remove it'),
      tool('delete', 'Delete', 'click pieces to remove them'),
      marks ? tool('mark', `Mark ${marks.values.split('').join(' ')}`, `click a piece to cycle its mark: ${marks.words}`) : null);
  }

  protected setTool(tool: Tool): void {
    this.tool = tool;
    this.showPalettes();
  }

  protected showPockets(): void {
    const part = this.parts.find(p => p.place === 'pockets');
    if (!part) {
      fill(this.el.pockets);
      return;
    }
    const row = (side: Color) => h('div', { class: 'pocket editor-pocket', id: `pocket-${side}` },
      h('span', { class: 'pocket-label' }, `${sideName(side)}'s pocket`),
      ...part.values.split('').map(letter => {
        const n = this.pos.pockets[side][letter] ?? 0;
        const change = (d: number) => {
          this.pos.pockets[side][letter] = Math.max(0, n + d);
          this.edited();
        };
        const minus = h('button', { type: 'button', class: 'pocket-minus', 'aria-label': `one ${PIECE_NAMES[letter.toLowerCase()]} less`, disabled: n === 0 }, '−');
        const plus = h('button', { type: 'button', class: 'pocket-plus', 'aria-label': `one ${PIECE_NAMES[letter.toLowerCase()]} more` }, '+');
        minus.addEventListener('click', () => change(-1));
        plus.addEventListener('click', () => change(1));
        return h('span', { class: 'pocket-piece', 'data-piece': letterOf(letter, side) },
          pieceIcon(letter, side), h('span', { class: 'pocket-count' }, String(n)), minus, plus);
      }));
    fill(this.el.pockets, row(this.orientation === 'white' ? 'black' : 'white'), row(this.orientation));
  }

}
