// SPDX-License-Identifier: GPL-3.0-or-later
//
// The board editor's position (the base of the page's class, editor.ts): the variant, options and
// position of the address, the edits made on the board, the FEN that follows them or is typed, and
// the library's judgement of it (Rules.checkFen): only a usable position is analysed or played from.

import type { Color } from './api';
import { errorText } from './api';
import { markShapes, isKey, type BoardApi } from './board';
import { emptyPosition, readFen, writeFen, type EditorPosition } from './editor_fen';
import { fill, h, navigate } from './dom';
import { type FenPart, type Rules, type VariantInfo } from './rules';

/** What a click on the board does: move pieces (drag), delete one, cycle a mark, or put a piece. */
export type Tool = { kind: 'move' } | { kind: 'delete' } | { kind: 'mark' } | { kind: 'piece'; letter: string };

export abstract class EditorModel {

  protected rules: Rules | null = null;
  protected board: BoardApi | null = null;
  protected variants: VariantInfo[] = [];
  protected variant = 'chess';
  protected options = '';
  protected parts: FenPart[] = [];
  protected pos: EditorPosition = emptyPosition();
  protected tool: Tool = { kind: 'move' };
  protected orientation: Color = 'white';
  protected usable = false;
  protected destroyed = false;
  protected readonly onResize = () => this.board?.redrawAll();
  protected el: Record<string, HTMLElement> = {};


  constructor(protected params: URLSearchParams, protected me: string | null) {}

  // The page's parts, drawn by the page (editor.ts).
  protected abstract build(): void;
  protected abstract buildParts(): void;
  protected abstract showParts(): void;
  protected abstract showPalettes(): void;
  protected abstract showPockets(): void;

  // ---- the start: the variant, options and position of the address -----------------------------

  protected start(): void {
    const rules = this.rules!;
    this.variants = rules.variants();
    const wanted = this.params.get('variant');
    this.variant = this.variants.some(v => v.name === wanted) ? wanted! : 'chess';
    this.options = this.params.get('options') ?? '';
    this.parts = rules.fenParts(this.variant);
    this.build();
    const fen = this.params.get('fen');
    const read = fen ? readFen(fen, this.parts) : null;
    if (fen && typeof read !== 'string' && read) {
      this.pos = read;
      this.showAll(fen);
    } else {
      this.pos = this.startPosition();
      this.showAll();
      // A FEN of the address that cannot be read as a board stays in the field, with the library's
      // sentence for it.
      if (fen) this.typed(fen);
    }
    window.addEventListener('resize', this.onResize);
  }

  protected startPosition(): EditorPosition {
    const start = this.variants.find(v => v.name === this.variant)?.start_fen ?? '';
    const read = readFen(start, this.parts);
    return typeof read === 'string' ? emptyPosition() : read;
  }

  // ---- edits on the board -------------------------------------------------------------------------

  protected pressBoard(ev: MouseEvent | TouchEvent): void {
    if (this.tool.kind === 'move' || !this.board) return;
    if (ev instanceof MouseEvent && ev.button !== 0) return;
    const point = ev instanceof MouseEvent ? ev : ev.touches[0];
    if (!point) return;
    const key = this.board.getKeyAtDomPos([point.clientX, point.clientY]);
    if (!key) return;
    ev.preventDefault();
    ev.stopPropagation();
    const tool = this.tool;
    if (tool.kind === 'delete') {
      this.pos.pieces.delete(key);
      this.pos.marks.delete(key);
    } else if (tool.kind === 'mark') {
      this.cycleMark(key);
    } else if (tool.kind === 'piece') {
      // Clicking a square that holds the same piece takes it off, as lichess's editor does.
      if (this.pos.pieces.get(key) === tool.letter) this.pos.pieces.delete(key);
      else this.pos.pieces.set(key, tool.letter);
      this.pos.marks.delete(key);
    }
    this.showBoard();
    this.edited();
  }

  protected cycleMark(key: string): void {
    const marks = this.parts.find(p => p.place === 'marks');
    if (!marks || !this.pos.pieces.has(key)) return;
    const cycle = ['', ...marks.values.split('')];
    const next = cycle[(cycle.indexOf(this.pos.marks.get(key) ?? '') + 1) % cycle.length];
    if (next) this.pos.marks.set(key, next); else this.pos.marks.delete(key);
  }

  /** A piece moved on the board keeps its mark; one it took loses its own. */
  protected moved(orig: string, dest: string): void {
    const mark = this.pos.marks.get(orig);
    this.pos.marks.delete(orig);
    if (mark) this.pos.marks.set(dest, mark); else this.pos.marks.delete(dest);
  }

  /** The board's pieces after chessground changed them (a drag, a drop, a piece dragged off). */
  protected boardChanged(): void {
    if (!this.board || this.destroyed) return;
    const pieces = new Map<string, string>();
    for (const [key, piece] of this.board.state.boardState.pieces) {
      if (!isKey(key)) continue;
      const letter = piece.role[0];
      pieces.set(key, piece.color === 'white' ? letter.toUpperCase() : letter);
    }
    this.pos.pieces = pieces;
    for (const key of [...this.pos.marks.keys()]) if (!pieces.has(key)) this.pos.marks.delete(key);
    this.showBoard();
    this.edited();
  }

  // ---- showing the position ---------------------------------------------------------------------

  protected boardFen(): string {
    let placement = '';
    for (let rank = 8; rank >= 1; rank--) {
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const p = this.pos.pieces.get(String.fromCharCode(97 + file) + rank);
        if (!p) { empty++; continue; }
        if (empty) placement += empty;
        empty = 0;
        placement += p;
      }
      if (empty) placement += empty;
      if (rank > 1) placement += '/';
    }
    return placement;
  }

  protected showBoard(): void {
    const marks: Record<string, string> = {};
    for (const [key, mark] of this.pos.marks) marks[key] = mark;
    this.board?.set({ fen: this.boardFen(), lastMove: undefined, drawable: { autoShapes: markShapes(marks) } });
    this.el.boardEl.dataset.fen = this.boardFen();
  }

  protected showControls(): void {
    const e = this.el;
    (e.turn as HTMLSelectElement).value = this.pos.turn;
    for (const box of e.castling.querySelectorAll<HTMLInputElement>('input[data-right]'))
      box.checked = this.pos.castling.includes(box.dataset.right!);
    // The en passant squares of the side to move: behind a pawn that has just stepped two squares.
    const rank = this.pos.turn === 'white' ? 6 : 3;
    const squares = ['-', ...'abcdefgh'.split('').map(f => f + rank)];
    if (!squares.includes(this.pos.ep)) squares.push(this.pos.ep);
    fill(e.ep, ...squares.map(s => h('option', { value: s, selected: s === this.pos.ep }, s === '-' ? 'none' : s)));
    (e.halfmove as HTMLInputElement).value = String(this.pos.halfmove);
    (e.fullmove as HTMLInputElement).value = String(this.pos.fullmove);
  }

  /** Everything drawn again from the position, the FEN field too (`fen`: as given, else made). */
  protected showAll(fen?: string): void {
    this.showBoard();
    this.showPalettes();
    this.showControls();
    this.buildParts();
    this.showParts();
    this.showPockets();
    if (fen !== undefined) {
      (this.el.fen as HTMLTextAreaElement).value = fen;
      this.check(false);
    } else {
      this.edited();
    }
  }

  // ---- the FEN and the library's judgement ----------------------------------------------------

  /** After an edit: the FEN made again, and judged; `normalise`: shown as the library writes it. */
  protected edited(normalise = true): void {
    (this.el.fen as HTMLTextAreaElement).value = writeFen(this.pos, this.parts);
    this.showControls();
    this.showPockets();
    this.check(normalise);
  }

  /** A FEN typed in: the board follows when it can be read; the library judges it either way. */
  protected typed(fen: string): void {
    const read = readFen(fen, this.parts);
    if (typeof read !== 'string') {
      this.pos = read;
      this.showBoard();
      this.showControls();
      this.showParts();
      this.showPockets();
    }
    (this.el.fen as HTMLTextAreaElement).value = fen;
    this.check(false);
  }

  /** Asks the library whether the FEN can be used, shows its sentence if not, and enables the buttons. */
  protected check(normalise: boolean): void {
    const input = this.el.fen as HTMLTextAreaElement;
    const fen = input.value.trim();
    let problem: string | null;
    try {
      // The library reads an empty FEN as the start: here it is no position at all.
      problem = fen ? this.rules!.checkFen(this.variant, this.options, fen) : 'the FEN is empty';
    } catch (e) {
      problem = errorText(e);
    }
    this.usable = problem === null;
    if (this.usable && normalise) {
      // The library's own writing of the position (fields it leaves out when empty, its order).
      try {
        const game = this.rules!.newGame(this.variant, this.options, fen);
        input.value = game.fen();
        game.free();
      } catch {
        // checkFen accepted it: newGame does too; the FEN as made stands otherwise.
      }
    }
    this.el.error.textContent = problem ?? '';
    this.el.editor = this.el.editor ?? document.getElementById('editor')!;
    this.el.editor.dataset.usable = String(this.usable);
    (this.el.analyse as HTMLButtonElement).disabled = !this.usable;
    (this.el.play as HTMLButtonElement).disabled = !this.usable;
    history.replaceState(null, '', this.link('/editor'));
  }

  protected link(path: string): string {
    const q = new URLSearchParams({ variant: this.variant });
    if (this.options) q.set('options', this.options);
    q.set('fen', (this.el.fen as HTMLTextAreaElement).value.trim());
    return `${path}?${q.toString()}`;
  }

  protected changeVariant(name: string): void {
    this.variant = name;
    this.options = '';
    this.parts = this.rules!.fenParts(name);
    const options = this.el.options as HTMLInputElement;
    options.value = '';
    options.placeholder = this.variants.find(v => v.name === name)?.options || 'no options';
    if (this.tool.kind === 'mark' && !this.parts.some(p => p.place === 'marks')) this.tool = { kind: 'move' };
    this.pos = this.startPosition();
    this.showAll();
  }

  /** The lobby's form, filled with this position, where the player picks an opponent and a clock
   *  (POST /api/games with the FEN); a visitor logs in first and comes back to it. */
  protected playFromHere(): void {
    if (!this.usable) return;
    const form = this.link('/');
    navigate(this.me ? form : `/?${new URLSearchParams({ next: form }).toString()}`);
  }
}
