// SPDX-License-Identifier: GPL-3.0-or-later
//
// The analysis board (/analysis?variant=&options=&fen=&moves=). The page holds a game of its own,
// computed in the browser by rules.ts: a start (the variant's, or a FEN) and the actions played since,
// by either side, time travel included, so that timelines grow as in a game. A cursor walks back and
// forth in those actions; playing at an earlier one replaces the actions after it. The engine
// (analysis-engine.ts, in a worker) analyses the position at the cursor and starts again whenever it
// changes. The address always says the variant, start and actions shown, so it can be shared. This file
// draws the page; analysis-game.ts holds its game and cursor, analysis-link.ts its address.

import type { Action, Color, GameState } from './api';
import { AnalysisGame } from './analysis-game';
import { analysisUrl } from './analysis-link';
import { dotShapes, frameShapes, isKey, makeBoard, markShapes, parsePockets, pieceAt, pieceIcon, PIECE_NAMES, type Key } from './board';
import { fill, h, navigate } from './dom';
import type { Page } from './main';
import { applyOptionClasses, COLOR_SCHEMES, loadOptions, PIECE_SETS } from './options';
import type { LocalState, Score, SearchLine } from './rules';
import { Timelines } from './timelines';

export { analysisOfGame, analysisUrl, type AnalysisLink } from './analysis-link';

/** One action of the record: as sent to the library, as shown, and its number ("12.", "12…"). */
/** A score for the side to move as White's share of the bar (0..100) and as text from White's side. */
function whiteView(score: Score, toMove: Color): { share: number; text: string } {
  const sign = toMove === 'white' ? 1 : -1;
  if ('mate' in score) {
    const m = score.mate * sign;
    return { share: m > 0 ? 100 : 0, text: `#${m}` };
  }
  const cp = score.cp * sign;
  // The usual logistic curve: ±4 pawns fill most of the bar.
  const share = 100 / (1 + Math.exp(-0.004 * cp));
  return { share, text: `${cp >= 0 ? '+' : '−'}${(Math.abs(cp) / 100).toFixed(2)}` };
}

export class AnalysisPage extends AnalysisGame implements Page {
  constructor(private readonly root: HTMLElement, params: URLSearchParams, private readonly me: string | null) {
    super();
    this.build();
    void this.load(params);
  }

  destroy(): void {
    this.destroyed = true;
    this.engine.destroy();
    this.resizeObserver?.disconnect();
    this.board?.destroy();
    this.timelines?.destroy();
    this.game?.free();
    document.body.classList.remove(...PIECE_SETS.map(p => `pieces-${p}`), ...COLOR_SCHEMES.map(c => `colors-${c}`));
  }

  // ---- building the page ------------------------------------------------------------------------

  protected build(): void {
    const e = this.el;
    e.page = h('div', { id: 'analysis', 'data-ply': '', 'data-depth': '0' });
    e.variant = h('select', { id: 'analysis-variant', 'aria-label': 'variant' });
    e.variant.addEventListener('change', () => this.reset((e.variant as HTMLSelectElement).value, '', ''));
    e.message = h('div', { id: 'analysis-message', role: 'alert' });
    e.status = h('div', { id: 'analysis-status' });

    e.evalFill = h('div', { class: 'eval-white' });
    e.evalText = h('div', { class: 'eval-text' });
    e.evalBar = h('div', { id: 'eval-bar', title: 'evaluation, White at the bottom' }, e.evalFill, e.evalText);
    e.boardEl = h('div', { id: 'analysis-board' });
    e.pocketTop = h('div', { class: 'pocket' });
    e.pocketBottom = h('div', { class: 'pocket' });
    e.choice = h('div', { id: 'analysis-choice', hidden: true });
    e.pieceActions = h('div', { id: 'piece-actions', hidden: true });

    const nav = (id: string, label: string, title: string, to: () => number): HTMLButtonElement => {
      const b = h('button', { id, type: 'button', title }, label);
      b.addEventListener('click', () => this.goTo(to()));
      e[id] = b;
      return b;
    };
    const flip = h('button', { id: 'analysis-flip', type: 'button', title: 'flip the board' }, '⇅');
    flip.addEventListener('click', () => {
      this.orientation = this.orientation === 'white' ? 'black' : 'white';
      this.render();
    });
    e.nav = h('div', { class: 'analysis-nav' },
      nav('nav-first', '«', 'the start', () => 0),
      nav('nav-prev', '◀', 'one action back', () => this.cursor - 1),
      nav('nav-next', '▶', 'one action forward', () => this.cursor + 1),
      nav('nav-last', '»', 'the last action', () => this.played.length), flip);

    const input = h('input', { id: 'analysis-input', type: 'text', placeholder: 'an action: e4, Bf1>9, e2e4', spellcheck: 'false', autocomplete: 'off' });
    const form = h('form', { class: 'move-entry' }, input, h('button', { type: 'submit' }, 'Play'));
    form.addEventListener('submit', ev => {
      ev.preventDefault();
      if (input.value.trim() && this.play([input.value.trim()])) input.value = '';
    });

    e.engineSwitch = h('input', { id: 'engine-switch', type: 'checkbox', checked: true });
    // Switched off, the engine stops and its last lines stay for the position they are about.
    e.engineSwitch.addEventListener('change', () => {
      this.engineOn = (e.engineSwitch as HTMLInputElement).checked;
      if (this.engineOn) this.startEngine();
      else {
        this.engine.analyse(null);
        this.renderEngine();
      }
    });
    e.depth = h('span', { id: 'engine-depth' });
    e.score = h('span', { id: 'engine-score' });
    e.engineState = h('div', { id: 'engine-state', class: 'hint' });
    e.lines = h('div', { id: 'engine-lines' });

    e.moveList = h('ol', { id: 'analysis-moves' });
    e.otherActions = h('div', { id: 'other-actions' });
    e.panels = h('div', { id: 'analysis-panels' });

    e.fen = h('input', { id: 'analysis-fen', type: 'text', spellcheck: 'false', autocomplete: 'off', 'aria-label': 'FEN' });
    const copyFen = h('button', { id: 'copy-fen', type: 'button' }, 'Copy');
    copyFen.addEventListener('click', () => void this.copy((e.fen as HTMLInputElement).value, 'FEN copied.'));
    const loadFen = h('button', { id: 'load-fen', type: 'button', title: 'start the analysis from the FEN typed here' }, 'Load');
    loadFen.addEventListener('click', () => this.reset(this.variant, this.options, (e.fen as HTMLInputElement).value.trim()));
    e.share = h('a', { id: 'share-link' });
    const copyLink = h('button', { id: 'copy-link', type: 'button' }, 'Copy link');
    copyLink.addEventListener('click', () => void this.copy(new URL(this.url(), location.href).href, 'Link copied.'));
    const problem = h('button', { id: 'make-problem', type: 'button', title: 'a link that starts from this position, without the actions before it' },
      'Problem from this position');
    problem.addEventListener('click', () => void this.makeProblem());
    e.problem = h('div', { id: 'problem-box', hidden: true });
    const playHere = h('button', { id: 'play-from-here', type: 'button', title: 'a new game, against a friend or the engine, from this position' },
      'Play from here');
    playHere.addEventListener('click', () => this.playFromHere());
    e.copied = h('span', { id: 'copied', class: 'hint', role: 'status' });

    e.timelines = h('div', { id: 'analysis-timelines' });
    this.timelines = new Timelines(e.timelines, ply => this.goTo(ply));

    fill(e.page,
      h('div', { class: 'analysis-head' }, h('h2', {}, 'Analysis board'), e.variant),
      h('div', { class: 'analysis-main' },
        h('div', { class: 'analysis-board-col' },
          e.pocketTop,
          h('div', { class: 'analysis-board-row' }, e.evalBar, h('div', { class: 'analysis-board-wrap' }, e.boardEl)),
          e.pocketBottom, e.status, e.nav, e.message, e.choice, e.pieceActions, form),
        h('div', { class: 'analysis-side' },
          h('section', { class: 'card engine-card' },
            h('div', { class: 'engine-head' },
              h('label', { class: 'engine-toggle' }, e.engineSwitch, ' Engine'), e.score, e.depth),
            e.engineState, e.lines),
          h('section', { class: 'card' }, h('h3', {}, 'Actions'), e.moveList),
          h('section', { class: 'card' }, h('h3', {}, 'Position'),
            h('div', { class: 'field-row' }, e.fen, copyFen, loadFen),
            h('div', { class: 'share-row' }, 'Link: ', e.share, ' ', copyLink),
            h('div', { class: 'analysis-buttons' }, problem, playHere, e.copied), e.problem),
          h('details', { class: 'card', id: 'other-details' }, h('summary', {}, 'Other actions'), e.otherActions),
          h('section', { class: 'card' }, h('h3', {}, 'Variant'), e.panels))),
      h('section', { class: 'timelines-box' }, h('h3', {}, 'Timelines'), e.timelines));
    fill(this.root, e.page);
    applyOptionClasses(document.body, loadOptions());
    e.otherActions.closest('details')?.addEventListener('toggle', () => this.renderOtherActions());

    this.board = makeBoard(e.boardEl, {
      viewOnly: false,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.onMove(o, d) } },
      events: { select: key => this.onSelect(key) },
    });
    // The board's size follows the page's width (phones): chessground must measure it again.
    this.resizeObserver = new ResizeObserver(() => this.board?.redrawAll());
    this.resizeObserver.observe(e.boardEl);
  }

  protected render(): void {
    const s = this.state;
    if (!s || this.destroyed) return;
    const e = this.el;
    e.page.setAttribute('data-ply', String(s.ply));
    e.page.setAttribute('data-variant', this.variant);
    document.title = 'Analysis board – ttchess';
    this.renderBoard(s);
    this.renderStatus(s);
    this.renderPockets(s);
    this.renderChoice();
    this.renderPieceActions();
    (e['nav-first'] as HTMLButtonElement).disabled = (e['nav-prev'] as HTMLButtonElement).disabled = this.cursor === 0;
    (e['nav-next'] as HTMLButtonElement).disabled = (e['nav-last'] as HTMLButtonElement).disabled = this.cursor === this.played.length;
    this.renderMoves();
    this.renderOtherActions();
    fill(e.panels, ...(s.panels.length ? s.panels.map(line => h('div', { class: 'panel-line' }, line)) : [h('div', { class: 'hint' }, 'Nothing to show.')]));
    (e.fen as HTMLInputElement).value = s.fen;
    const url = this.url();
    e.share.setAttribute('href', url);
    e.share.textContent = new URL(url, location.href).href;
    this.timelines?.render({ ...s, variant: this.variant } as unknown as GameState, this.orientation);
    this.renderEngine();
  }

  protected renderBoard(s: LocalState): void {
    const dests = new Map<Key, Key[]>();
    for (const a of s.legal) {
      if (!this.isBoardMove(a)) continue;
      const from = a.from as Key;
      const list = dests.get(from) ?? [];
      if (!list.includes(a.to as Key)) list.push(a.to as Key);
      dests.set(from, list);
    }
    const last = s.actions.find(a => a.ply === s.ply);
    const shapes = markShapes(s.marks);
    if (this.choice) shapes.push(...frameShapes(this.choice.flatMap(a => [a.from ?? '', a.to ?? ''])));
    if (this.selected) shapes.push(...dotShapes(this.legal().filter(a => a.from === this.selected && !this.isBoardMove(a)).map(a => a.to ?? '')));
    this.board?.set({
      fen: s.board,
      orientation: this.orientation,
      turnColor: s.to_move,
      check: s.check,
      lastMove: last ? [last.from, last.to].filter(isKey) : [],
      movable: { free: false, color: s.result === null ? s.to_move : undefined, dests, showDests: true },
      selectable: { enabled: true },
      drawable: { enabled: false, visible: true, autoShapes: shapes },
    });
  }

  /** Who plays, or how the game ended, and where the position is. */
  protected renderStatus(s: LocalState): void {
    const node = this.presentNode();
    const where = node ? ` · move ${node.move}${s.timelines > 1 ? ` · timeline ${node.timeline} of ${s.timelines}` : ''}` : '';
    const who = s.result !== null ? `${s.result}${s.reason ? `, ${s.reason}` : ''}` : `${s.to_move === 'white' ? 'White' : 'Black'} to play${s.check ? ', in check' : ''}`;
    this.el.status.textContent = who + where;
    this.el.status.classList.toggle('over', s.result !== null);
  }

  protected renderPockets(s: LocalState): void {
    const pockets = parsePockets(s.fen);
    const e = this.el;
    const draw = (el: HTMLElement, c: Color): void => {
      el.hidden = !pockets;
      if (!pockets) return;
      fill(el, h('span', { class: 'pocket-label' }, `${c === 'white' ? 'White' : 'Black'}'s pocket:`),
        ...(pockets[c].length ? pockets[c].map(p => pieceIcon(p, c)) : [h('span', { class: 'hint' }, ' empty')]));
    };
    draw(e.pocketTop, this.orientation === 'white' ? 'black' : 'white');
    draw(e.pocketBottom, this.orientation);
  }

  protected renderChoice(): void {
    const box = this.el.choice;
    box.hidden = !this.choice;
    if (!this.choice) return;
    const cancel = h('button', { type: 'button', class: 'cancel' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.choice = null;
      this.render();
    });
    fill(box, h('div', { class: 'choice-head' }, 'Several actions match: choose one.'),
      ...this.choice.map(a => this.actionButton(a)), cancel);
  }

  protected renderPieceActions(): void {
    const box = this.el.pieceActions;
    const key = this.selected;
    const acts = key ? this.legal().filter(a => a.from === key && !this.isBoardMove(a)) : [];
    box.hidden = acts.length === 0;
    if (!key || !acts.length) {
      fill(box);
      return;
    }
    const letter = this.state ? pieceAt(this.state.board, key) : null;
    const name = letter ? `${PIECE_NAMES[letter.toLowerCase()] ?? letter} on ${key}` : key;
    fill(box, h('div', { class: 'group-label' }, `Other actions of the ${name}:`), ...acts.map(a => this.actionButton(a)));
  }

  /** The legal actions that are not moves on the board (drops, arrivals, travels), drawn only while
   *  their list is open: a van Gog position has thousands. */
  protected renderOtherActions(): void {
    const details = this.el.otherActions.closest('details');
    const others = this.legal().filter(a => !this.isBoardMove(a));
    const summary = details?.querySelector('summary');
    if (summary) summary.textContent = `Other actions (${others.length})`;
    if (!details?.open) {
      fill(this.el.otherActions);
      return;
    }
    const groups = new Map<string, Action[]>();
    for (const a of others) {
      const k = a.at_node ? 'travel to an earlier position' : this.state?.kinds[a.kind]?.words ?? a.kind;
      groups.set(k, [...(groups.get(k) ?? []), a]);
    }
    fill(this.el.otherActions, ...(others.length ? [...groups.entries()].map(([k, acts]) =>
      h('div', { class: 'legal-group' }, h('div', { class: 'group-label' }, `${k} (${acts.length})`), ...acts.map(a => this.actionButton(a))))
      : [h('p', { class: 'hint' }, 'Every legal action is a move on the board.')]));
  }

  protected renderMoves(): void {
    const ol = this.el.moveList;
    const items = this.played.map((p, i) => {
      const li = h('li', { 'data-ply': i + 1, class: i + 1 === this.cursor ? 'shown' : i + 1 > this.cursor ? 'after' : '', title: p.coord },
        h('span', { class: 'num' }, p.number), ' ', h('span', { class: 'human' }, p.human));
      li.addEventListener('click', () => this.goTo(i + 1));
      return li;
    });
    const start = h('li', { class: this.cursor === 0 ? 'start shown' : 'start', 'data-ply': 0 }, 'start position');
    start.addEventListener('click', () => this.goTo(0));
    fill(ol, start, ...items);
    ol.querySelector('.shown')?.scrollIntoView({ block: 'nearest' });
  }

  protected renderEngine(): void {
    const e = this.el;
    const s = this.state;
    const best = this.lines.get(1);
    e.page.setAttribute('data-depth', String(best?.depth ?? 0));
    e.depth.textContent = best ? `depth ${best.depth}` : '';
    const view = best && s ? whiteView(best.score, s.to_move) : null;
    e.score.textContent = view?.text ?? '';
    e.evalFill.style.height = `${view?.share ?? 50}%`;
    e.evalText.textContent = view?.text ?? '';
    e.evalBar.classList.toggle('off', !this.engineOn);
    e.engineState.textContent = this.engineNote
      || (!this.engineOn ? 'The engine is off.' : best ? `${best.nodes.toLocaleString()} nodes, ${Math.round(best.nps / 1000)} kN/s` : 'Thinking…');
    const rows = [...this.lines.values()].sort((a, b) => a.multipv - b.multipv).map(line => this.lineRow(line));
    fill(e.lines, ...rows);
  }

  /** One line: its score and its actions, each a button that plays the line up to it. */
  protected lineRow(line: SearchLine): HTMLElement {
    const s = this.state;
    const view = s ? whiteView(line.score, s.to_move) : null;
    const present = this.presentNode();
    let move = present?.move ?? 1;
    let side: Color = present?.side ?? 'white';
    const buttons = line.pv.map((a, i) => {
      const number = i === 0 || side === 'white' ? `${move}${side === 'white' ? '.' : '…'} ` : '';
      const b = h('button', { type: 'button', class: 'pv-move', 'data-coord': a.coord, title: a.coord }, number, a.human);
      // Played at the press, not the click: a new depth may redraw the lines between the press and
      // the release, and the click would be lost. A click from the keyboard (detail 0) plays too.
      const playLine = (): void => void this.play(line.pv.slice(0, i + 1).map(x => x.coord));
      b.addEventListener('pointerdown', ev => {
        if (ev.button === 0) playLine();
      });
      b.addEventListener('click', ev => {
        if (ev.detail === 0) playLine();
      });
      if (side === 'black') move++;
      side = side === 'white' ? 'black' : 'white';
      return b;
    });
    return h('div', { class: 'pv-line', 'data-multipv': line.multipv, 'data-depth': line.depth },
      h('span', { class: 'pv-score' }, view?.text ?? ''), ...buttons);
  }

  // ---- links and new games ----------------------------------------------------------------------

  protected async copy(text: string, done: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.el.copied.textContent = done;
    } catch {
      this.el.copied.textContent = 'Copying was refused by the browser: select the text and copy it.';
    }
  }

  /** A problem starts from the position shown, without the actions that led to it. */
  protected async makeProblem(): Promise<void> {
    const s = this.state;
    if (!s) return;
    const href = new URL(analysisUrl({ variant: this.variant, options: this.options, fen: s.fen, moves: [] }), location.href).href;
    const link = h('a', { id: 'problem-link', href }, href);
    fill(this.el.problem, 'Problem: ', link);
    this.el.problem.hidden = false;
    await this.copy(href, 'Problem link copied.');
  }

  /** The lobby's form for a new game, filled with this variant and position (a visitor logs in first). */
  protected playFromHere(): void {
    const s = this.state;
    if (!s) return;
    const q = new URLSearchParams({ variant: this.variant, options: this.options, fen: s.fen });
    const target = `/?${q.toString()}`;
    navigate(this.me ? target : `/?${new URLSearchParams({ next: target }).toString()}`);
  }
}
