// SPDX-License-Identifier: GPL-3.0-or-later
//
// The analysis board's game (the base of the page's class, analysis.ts): a start and the actions played
// since, computed in the browser by rules.ts, a cursor that walks back and forth in them, and the
// engine started on the position at the cursor. Playing at an earlier action replaces those after it.

import { errorText, type Action, type Color, type GameNode } from './api';
import { AnalysisEngine } from './analysis-engine';
import { analysisUrl } from './analysis-link';
import { isKey, type BoardApi } from './board';
import { fill, h } from './dom';
import { loadRules, type LocalGame, type LocalState, type Rules, type SearchLine } from './rules';
import type { Timelines } from './timelines';

/** One action of the record: as sent to the library, as shown, and its number ("12.", "12…"). */
export interface Played {
  coord: string;
  human: string;
  number: string;
}

/** The move number before an action: "12." for White, "12…" for Black. */
function numberOf(node: { move: number; side: Color } | undefined): string {
  return node ? `${node.move}${node.side === 'white' ? '.' : '…'}` : '';
}


export abstract class AnalysisGame {
  protected rules: Rules | null = null;
  protected game: LocalGame | null = null;
  protected state: LocalState | null = null;
  protected variant = '';
  protected options = '';
  protected startFen = '';
  protected played: Played[] = [];
  /** How many of the played actions the board shows. */
  protected cursor = 0;
  protected orientation: Color = 'white';
  protected board: BoardApi | null = null;
  protected timelines: Timelines | null = null;
  protected engine: AnalysisEngine = new AnalysisEngine({
    line: line => this.onLine(line),
    done: reason => {
      this.engineNote = reason === 'over' ? 'The game is over in this position.' : 'Deepest depth reached.';
      this.renderEngine();
    },
    error: message => {
      this.engineNote = message;
      this.renderEngine();
    },
  });
  protected engineOn = true;
  protected lines = new Map<number, SearchLine>();
  protected engineNote = '';
  /** Several actions matched one gesture: the chooser lists them. */
  protected choice: Action[] | null = null;
  /** The square whose non-board actions (time travel, arrivals) are listed. */
  protected selected: string | null = null;
  protected resizeObserver: ResizeObserver | null = null;
  protected destroyed = false;
  protected readonly el: Record<string, HTMLElement> = {};

  protected abstract render(): void;
  protected abstract renderEngine(): void;
  protected abstract renderPieceActions(): void;

  // ---- the game analysed ------------------------------------------------------------------------

  protected async load(params: URLSearchParams): Promise<void> {
    try {
      this.rules = await loadRules();
    } catch (e) {
      this.setMessage(`The rules could not be loaded: ${errorText(e)}`);
      return;
    }
    if (this.destroyed) return;
    const variants = this.rules.variants();
    fill(this.el.variant, ...variants.map(v => h('option', { value: v.name }, `${v.title} (${v.name})`)));
    const wanted = params.get('variant') ?? '';
    const variant = variants.some(v => v.name === wanted) ? wanted : variants[0]?.name ?? 'chess';
    const moves = (params.get('moves') ?? '').split(/\s+/).filter(m => m !== '');
    this.reset(variant, params.get('options') ?? '', params.get('fen') ?? '', moves);
  }

  /** Starts over from a variant's start or a FEN, then plays `moves`; a refusal is shown and the
   *  page keeps what it had (or the variant's start, when it had nothing). */
  protected reset(variant: string, options: string, fen: string, moves: string[] = []): void {
    if (!this.rules) return;
    let game: LocalGame;
    try {
      game = this.rules.newGame(variant, options, fen);
    } catch (e) {
      this.setMessage(errorText(e));
      if (this.game) {
        (this.el.variant as HTMLSelectElement).value = this.variant;
        return;
      }
      game = this.rules.newGame(variant);
      options = fen = '';
    }
    const played: Played[] = [];
    let refused = '';
    for (const m of moves) {
      try {
        played.push(this.playOn(game, m));
      } catch (e) {
        refused = `Action ${played.length + 1} of the link (${m}) is refused: ${errorText(e)}`;
        break;
      }
    }
    this.game?.free();
    this.game = game;
    this.variant = variant;
    this.options = options;
    this.startFen = fen;
    this.played = played;
    this.cursor = played.length;
    this.selected = null;
    this.choice = null;
    (this.el.variant as HTMLSelectElement).value = variant;
    this.changed();
    this.setMessage(refused);
  }

  /** Plays one action on a game and says how it is written, with its number. */
  protected playOn(game: LocalGame, action: string): Played {
    const s = game.state();
    const present = s.nodes.find(n => n.ply === s.ply);
    const a = game.play(action);
    return { coord: a.coord, human: a.human, number: numberOf(present) };
  }

  /** Plays actions from the position shown, replacing the actions after it; false if one is refused
   *  (those before it stay played). */
  protected play(actions: string[]): boolean {
    const game = this.game;
    if (!game) return false;
    const played = this.played.slice(0, this.cursor);
    let ok = true;
    for (const action of actions) {
      try {
        played.push(this.playOn(game, action));
      } catch (e) {
        this.setMessage(errorText(e));
        ok = false;
        break;
      }
    }
    if (played.length === this.cursor) {
      this.render();
      return false;
    }
    this.played = played;
    this.cursor = played.length;
    this.choice = null;
    this.selected = null;
    if (ok) this.setMessage('');
    this.changed();
    return ok;
  }

  /** Shows the position after `n` actions: the game is made again from its start. */
  protected goTo(n: number): void {
    if (!this.rules || n < 0 || n > this.played.length || n === this.cursor) return;
    const game = this.rules.newGame(this.variant, this.options, this.startFen);
    for (const p of this.played.slice(0, n)) game.play(p.coord);
    this.game?.free();
    this.game = game;
    this.cursor = n;
    this.choice = null;
    this.selected = null;
    this.setMessage('');
    this.changed();
  }

  /** The position changed: the engine starts again, the address follows, the page is drawn. */
  protected changed(): void {
    this.state = this.game?.state() ?? null;
    history.replaceState(null, '', this.url());
    this.startEngine();
    this.render();
  }

  protected url(): string {
    return analysisUrl({ variant: this.variant, options: this.options, fen: this.startFen, moves: this.played.slice(0, this.cursor).map(p => p.coord) });
  }

  protected presentNode(): GameNode | undefined {
    return this.state?.nodes.find(n => n.ply === this.state?.ply);
  }

  // ---- the engine -------------------------------------------------------------------------------

  protected startEngine(): void {
    this.lines.clear();
    this.engineNote = '';
    const s = this.state;
    if (this.engineOn && s && s.result === null) {
      this.engine.analyse({ variant: this.variant, options: this.options, fen: this.startFen,
        moves: this.played.slice(0, this.cursor).map(p => p.coord) });
    } else {
      this.engine.analyse(null);
      if (s?.result) this.engineNote = `The game is over: ${s.result}${s.reason ? `, ${s.reason}` : ''}.`;
    }
    this.renderEngine();
  }

  protected onLine(line: SearchLine): void {
    // A new depth's first line replaces the lines of the depth before.
    const best = this.lines.get(1);
    if (best && line.depth > best.depth && line.multipv === 1) this.lines.clear();
    this.lines.set(line.multipv, line);
    this.renderEngine();
  }

  // ---- board gestures ---------------------------------------------------------------------------

  protected legal(): Action[] {
    return this.state?.legal ?? [];
  }

  protected isBoardMove(a: Action): boolean {
    return !a.at_node && !!this.state?.kinds[a.kind]?.board && isKey(a.from) && isKey(a.to);
  }

  protected onMove(orig: string, dest: string): void {
    const matches = this.legal().filter(a => this.isBoardMove(a) && a.from === orig && a.to === dest);
    if (matches.length === 1) this.play([matches[0].coord]);
    else {
      this.choice = matches.length ? matches : null;
      this.render();
    }
  }

  /** A piece clicked: its actions that are not a move on the board (time travel) are listed. */
  protected onSelect(key: string): void {
    const next = this.legal().some(a => a.from === key && !this.isBoardMove(a)) ? key : null;
    if (next === this.selected) return;
    this.selected = next;
    this.renderPieceActions();
  }

  protected actionButton(a: Action): HTMLButtonElement {
    const k = this.state?.kinds[a.kind];
    const words = k && k.words && a.kind !== 'normal' ? ` ${k.words}${k.arg ? ` (${k.arg} ${a.arg})` : ''}` : '';
    const b = h('button', { type: 'button', class: 'action', 'data-coord': a.coord, title: a.coord }, a.human,
      words ? h('span', { class: 'kind' }, words) : null);
    b.addEventListener('click', () => this.play([a.coord]));
    return b;
  }

  // ---- rendering --------------------------------------------------------------------------------

  protected setMessage(text: string): void {
    this.el.message.textContent = text;
  }

}
