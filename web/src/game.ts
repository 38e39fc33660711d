// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page. It keeps its own copy of the game, played by the library's rules in the page
// (rules.ts): the record is read once from the server and replayed, and from then on each action
// of the game's event stream is played on that copy, so that the legal actions, the positions and
// the timelines are computed here, never downloaded; a live clock's times come with the events. The
// server's state is fetched only for what the rules and the events cannot tell (players, offers, an
// end by resignation, agreement or time). The
// player's own action is shown at once and the server's answer confirms it or puts it back. Every
// legal action is reachable: by drag or click on the board (moves), from the rows beside it (drops,
// arrivals, explosions), from the time-travel panel of a selected piece, from the list of all legal
// actions, or typed in any notation; during the opponent's turn one move may be queued (a premove).

import { analysisOfGame } from './analysis';
import { Banner, tabTitle } from './banner'; // W3 wiring
import { Clocks } from './clocks'; // W3 wiring
import { Sounds } from './sounds'; // W3 wiring
import { api, ApiError, errorText, type Action, type Color, type GameNode, type GameState, type KibitzMessage, type KindInfo } from './api';
import {
  colored, dotShapes, frameShapes, isKey, makeBoard, makeViewBoard, markShapes, parsePockets, pieceAt, pieceIcon,
  PIECE_NAMES, placeOn, textDiagram, type BoardApi, type Key,
} from './board';
import { appLink, fill, h, navigate } from './dom';
import { storedInvite } from './lobby';
import type { Page } from './main';
import {
  applyOptionClasses, bottomColor, COLOR_SCHEMES, loadOptions, PIECE_SETS, saveOptions, SCALE_MAX, SCALE_MIN,
  type RenderOptions,
} from './options';
import { loadRules, type LocalGame, type LocalState, type Rules } from './rules';
import { chainTo, nodeByPly, pieceOfSend, Timelines, transitShapes } from './timelines';
import { MoveList } from './movelist'; // W2 wiring
import { TravelFrame } from './travel-frame'; // W2 wiring
import type { BoardHost } from './game-parts'; // W2 wiring

/** The page's state: the server's (players, status, clocks, offers) with the position, the record
 *  and the legal actions as the page's own rules compute them. */
type PageState = GameState & { legal: Action[]; nodes: GameNode[] };

/** The clocks an event brought: its number, the clocks as the server committed them with it, and the
 *  moment (performance.now()) from which the running side's time counts down. */
interface EventClock {
  id: number;
  clock: GameState['clock'];
  since: number;
}

/** An action or a take-back of the event stream, with the clocks it carries. */
interface RecordChange {
  type: string;
  ply: number;
  coord: string;
  clock: EventClock | null;
}

/** The actions of the POST .../actions request that are not moves of the game. */
const CONTROLS = new Set(['resign', 'offer-draw', 'accept-draw', 'offer-takeback', 'accept-takeback', 'decline']);

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

const EVENT_TYPES = ['action', 'takeback', 'resign', 'accept-draw', 'offer-draw', 'offer-takeback', 'decline', 'time', 'accepted', 'declined',
  'joined', 'kibitz', 'kibitz-switch', 'rematch-offer', 'rematch', 'rematch-declined']; // W3 wiring: rematch events


function otherColor(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export class GamePage implements Page {
  /** What the page shows: `meta` and the rules' view of `game`, put together by compose(). */
  private state: PageState | null = null;
  /** The server's state, for what the rules cannot know; its record is read only to start or to catch up. */
  private meta: GameState | null = null;
  private rules: Rules | null = null;
  /** The page's own copy of the game at the present, with the player's action while it is being sent. */
  private game: LocalGame | null = null;
  /** The start position of the game ('' for the variant's own), as the library reads it. */
  private startFen = '';
  /** The actions played on `game`, by their coordinates, in order: index i is ply i + 1. */
  private record: string[] = [];
  /** What the rules say of `game`, computed once after each change of it. */
  private local: LocalState | null = null;
  /** The player's action sent and not yet answered: the game as it was before it, and its ply. */
  private pending: { before: LocalGame; ply: number } | null = null;
  /** Actions and take-backs of the event stream that came before the game was loaded, in order. */
  private early: RecordChange[] = [];
  /** The event stream has opened once: each later opening is a reconnection. */
  private streamOpened = false;
  private opts: RenderOptions = loadOptions();
  private board: BoardApi | null = null;
  private previewBoard: BoardApi | null = null;
  private timelines: Timelines | null = null;
  private moveTree: MoveList | null = null; // W2 wiring
  private travelFrame: TravelFrame | null = null; // W2 wiring
  private readonly host: BoardHost = { showNode: ply => this.show(ply), legal: () => this.legal(), orientation: () => this.orientation(), // W2 wiring
    offerTravel: (ply, actions, title) => { this.viewPly = null; this.travelFrame?.start(this.state?.nodes.find(n => n.ply === ply), actions, title); } }; // W2 wiring
  private events: EventSource | null = null;
  private readonly sounds = new Sounds(); // W3 wiring
  private readonly clocks = new Clocks(() => this.sounds.play('low-time')); // W3 wiring
  private readonly banner = new Banner(this.id); // W3 wiring
  /** When (performance.now()) the running side's time in `meta.clock` was what it reads. */
  private clockAt = 0;
  /** The event whose clocks `meta.clock` holds (or the last event of the state that brought them): an
   *  older event, or a state read before a newer event, does not set them back. */
  private clockEvent = 0;
  /** The least difference seen between this page's Date.now() and an event's `at`: the offset of the two
   *  machines' clocks plus the quickest delivery, so that an event read late (replayed after a
   *  reconnection) is counted from its own time and not from its arrival. */
  private skew: number | null = null;
  private destroyed = false;
  private resizeObserver: ResizeObserver | null = null;

  /** The node shown on the main board instead of the present one, chosen in the move list. */
  private viewPly: number | null = null;
  /** The square of the piece whose time travel the panel lists. */
  private selected: string | null = null;
  private placement: Placement | null = null;
  /** Several actions matched one gesture: the chooser lists them. */
  private choice: Action[] | null = null;
  /** A king going back, or a whole-board travel, waiting for confirmation under its preview. */
  private preview: Action | null = null;
  /** What the legal list shows now (renderLegalList), so that the same list is not drawn again. */
  private legalKey = '';
  private sending = false;
  private kibitz: KibitzMessage[] = [];

  /** Requests are numbered so that a slow reply never replaces the state a later one brought. */
  private issued = 0;
  private applied = 0;
  private refreshing = false;
  private refreshAgain = false;

  // The parts of the page that live as long as the page, so inputs keep what is typed in them.
  private readonly el: Record<string, HTMLElement> = {};

  constructor(private readonly root: HTMLElement, private readonly id: string, private readonly invite: string | null,
    private readonly me: string | null) {
    this.build();
    // The event stream opens once the first state has come, after the last event that state includes.
    void this.refresh();
    void this.refreshKibitz();
  }

  destroy(): void {
    this.destroyed = true;
    this.events?.close();
    this.resizeObserver?.disconnect();
    this.clocks.destroy(); this.sounds.destroy(); // W3 wiring
    this.board?.destroy();
    this.previewBoard?.destroy();
    this.timelines?.destroy();
    this.moveTree?.destroy(); // W2 wiring
    this.pending?.before.free();
    this.game?.free();
    document.body.classList.remove(...PIECE_SETS.map(p => `pieces-${p}`), ...COLOR_SCHEMES.map(c => `colors-${c}`));
  }

  // ---- building the page ------------------------------------------------------------------------

  private build(): void {
    const e = this.el;
    e.game = h('div', { id: 'game', 'data-ply': '', 'data-status': '', 'data-you': '', 'data-timelines': '' });
    e.title = h('h2', { class: 'game-title' }, 'Loading the game…');
    e.players = h('div', { class: 'players' });
    e.status = h('div', { id: 'status', role: 'status' });
    e.message = h('div', { id: 'message', role: 'alert' });
    e.notice = h('div', { id: 'notice', class: 'error' });
    e.invite = h('div', { id: 'invite-box', class: 'invite', hidden: true });

    e.pocketTop = h('div', { id: 'pocket-top', class: 'pocket' });
    e.boardEl = h('div', { id: 'board' });
    e.boardWrap = h('div', { class: 'board-wrap' }, e.boardEl);
    e.pocketBottom = h('div', { id: 'pocket-bottom', class: 'pocket' });
    e.viewing = h('div', { id: 'viewing', hidden: true });
    e.premove = h('div', { id: 'premove', hidden: true });
    e.placement = h('div', { id: 'placement' });
    e.choice = h('div', { id: 'choice', hidden: true });

    const moveInput = h('input', { id: 'move-input', type: 'text', placeholder: 'an action: e4, Bf1>9, e2e4, P e2-e4', spellcheck: 'false', autocomplete: 'off' });
    const moveSend = h('button', { id: 'move-send', type: 'submit' }, 'Send');
    e.moveInput = moveInput;
    e.moveSend = moveSend;
    const moveForm = h('form', { class: 'move-entry' }, moveInput, moveSend);
    moveForm.addEventListener('submit', ev => {
      ev.preventDefault();
      const text = moveInput.value.trim();
      if (!text) {
        this.setMessage('Type an action first, e.g. e4 or Bf1>9.');
        return;
      }
      void this.send(text).then(ok => { if (ok) moveInput.value = ''; });
    });
    e.moveEntry = moveForm;

    const button = (id: string, label: string, action: () => void): HTMLButtonElement => {
      const b = h('button', { id, type: 'button', hidden: true }, label);
      b.addEventListener('click', action);
      e[id] = b;
      return b;
    };
    e.controls = h('div', { class: 'controls' },
      button('join', 'Join this game', () => void this.join()),
      button('resign', 'Resign', () => {
        if (window.confirm('Resign this game?')) void this.send('resign');
      }),
      button('offer-draw', 'Offer draw', () => void this.send('offer-draw')),
      button('accept-draw', 'Accept draw', () => void this.send('accept-draw')),
      button('offer-takeback', 'Offer take-back', () => void this.send('offer-takeback')),
      button('accept-takeback', 'Accept take-back', () => void this.send('accept-takeback')),
      button('decline', 'Decline', () => void this.send('decline')),
      this.sounds.toggle); // W3 wiring
    e.offers = h('div', { id: 'offers' });

    e.travel = h('div', { id: 'travel-panel' });
    e.panels = h('div', { id: 'panels' });
    e.moveList = h('div', { id: 'move-list' }); // W2 wiring: a div of timeline groups
    e.legalList = h('div', { id: 'legal-list' });
    e.legalSummary = h('summary', {}, 'All legal actions');
    const legalDetails = h('details', { id: 'legal-details', class: 'card' }, e.legalSummary, e.legalList);
    let legalOpen = true;
    try {
      legalOpen = localStorage.getItem('ttchess.legal-open') !== 'false';
    } catch {
      legalOpen = true;
    }
    legalDetails.open = legalOpen;
    legalDetails.addEventListener('toggle', () => {
      try {
        localStorage.setItem('ttchess.legal-open', String(legalDetails.open));
      } catch {
        // Not remembering the choice is harmless.
      }
    });

    e.pgn = h('a', { id: 'pgn-link', target: '_blank', rel: 'noopener' }, 'PGN');
    e.sheets = h('a', { id: 'sheets-link', target: '_blank', rel: 'noopener' }, 'Score sheets');
    e.diagram = h('a', { id: 'diagram-link', target: '_blank', rel: 'noopener' }, 'Diagram (SVG)');
    const newFromHere = h('button', { id: 'new-from-here', type: 'button' }, 'New game from this position');
    newFromHere.addEventListener('click', () => this.newFromHere());
    // The analysis board at the position shown (any ply of any timeline, picked in the move list or
    // on a timeline): the game's start and its actions up to that node.
    const analyse = h('button', { id: 'analyse-here', type: 'button', title: 'the analysis board at the position shown' }, 'Analyse');
    analyse.addEventListener('click', () => {
      const node = this.shownNode();
      if (this.state && node) navigate(analysisOfGame(this.state, node.ply));
    });
    e.links = h('div', { class: 'links' }, e.pgn, ' · ', e.sheets, ' · ', e.diagram, ' ', newFromHere, ' ', analyse);

    this.buildOptions();
    this.buildKibitz();

    e.timelines = h('div', { id: 'timelines' });
    this.timelines = new Timelines(e.timelines, this.host); // W2 wiring
    this.moveTree = new MoveList(e.moveList, this.host); // W2 wiring
    e.travelFrame = h('div', { id: 'travel-frame' }); // W2 wiring
    this.travelFrame = new TravelFrame(e.travelFrame, e.boardWrap, { send: c => void this.send(c), redraw: () => this.render(), kinds: () => this.state?.kinds ?? {} }); // W2 wiring

    e.moveListCard = h('section', { class: 'card' }, h('h3', {}, 'Moves'), e.moveList);
    e.boardCol = h('div', { class: 'board-col' }, this.clocks.top, e.pocketTop, e.boardWrap, e.pocketBottom, // W3 wiring
      this.clocks.bottom, e.travelFrame /* W2 wiring */, this.banner.el, e.viewing, e.premove, e.message, // W3 wiring
      e.placement, e.choice, e.moveEntry, e.optionsBox, e.textDiagram);
    fill(e.game,
      h('div', { class: 'game-head' }, e.title, e.players, e.status, e.notice, e.invite),
      h('div', { class: 'game-main' },
        e.boardCol,
        h('div', { class: 'play-col' }, e.controls, e.offers, e.travel,
          h('section', { class: 'card' }, h('h3', {}, 'Variant'), e.panels), e.moveListCard),
        h('div', { class: 'info-col' }, legalDetails, h('section', { class: 'card' }, h('h3', {}, 'Record'), e.links), e.kibitzBox)),
      h('section', { class: 'timelines-box' }, h('h3', {}, 'Timelines'), e.timelines));
    fill(this.root, e.game);
    applyOptionClasses(document.body, this.opts);

    this.board = makeBoard(e.boardEl, {
      viewOnly: false,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d, m) => this.onMove(o, d, m.premove) } },
      premovable: { enabled: false, castle: true, events: { set: () => this.renderPremove(), unset: () => this.renderPremove() } },
      events: { select: key => this.onSelect(key) },
    });
    // A right click cancels the premove, as on lichess (chessground takes only the left button).
    e.boardEl.addEventListener('mousedown', ev => {
      if (ev.button === 2) this.board?.cancelPremove();
    });
    this.sizeBoard();
    this.resizeObserver = new ResizeObserver(() => this.board?.state.dom.bounds.clear());
    this.resizeObserver.observe(e.game);
  }

  private buildOptions(): void {
    const e = this.el;
    const o = this.opts;
    const orientation = h('select', { id: 'opt-orientation' },
      ...[['auto', 'my colour'], ['white', 'white'], ['black', 'black'], ['flip', 'flipped']].map(([v, t]) =>
        h('option', { value: v, selected: o.orientation === v }, t)));
    const scale = h('input', { id: 'opt-scale', type: 'range', min: SCALE_MIN, max: SCALE_MAX, step: 5, value: o.scale });
    const scaleOut = h('span', { class: 'scale-value' }, `${o.scale} %`);
    const pieces = h('select', { id: 'opt-pieces' },
      h('option', { value: 'cburnett', selected: o.pieces === 'cburnett' }, 'cburnett'),
      h('option', { value: 'glyphs', selected: o.pieces === 'glyphs' }, 'glyphs'));
    const colors = h('select', { id: 'opt-colors' },
      ...COLOR_SCHEMES.map(c => h('option', { value: c, selected: o.colors === c }, c)));
    const text = h('input', { id: 'opt-text', type: 'checkbox', checked: o.text });
    e.textDiagram = h('pre', { id: 'text-diagram', hidden: !o.text });

    const changed = (): void => {
      this.opts = {
        orientation: orientation.value as RenderOptions['orientation'],
        scale: Number(scale.value),
        pieces: pieces.value as RenderOptions['pieces'],
        colors: colors.value as RenderOptions['colors'],
        text: text.checked,
      };
      scaleOut.textContent = `${this.opts.scale} %`;
      saveOptions(this.opts);
      applyOptionClasses(document.body, this.opts);
      e.textDiagram.hidden = !this.opts.text;
      this.sizeBoard();
      this.render();
    };
    for (const input of [orientation, pieces, colors, text]) input.addEventListener('change', changed);
    scale.addEventListener('input', changed);
    scale.addEventListener('change', changed);
    e.optionsBox = h('details', { class: 'options card', id: 'options' },
      h('summary', {}, 'Board options'),
      h('div', { class: 'option-grid' },
        h('label', {}, 'Orientation', orientation),
        h('label', {}, 'Scale', scale, scaleOut),
        h('label', {}, 'Piece set', pieces),
        h('label', {}, 'Colours', colors),
        h('label', { class: 'check' }, text, 'Text diagram')));
    (e.optionsBox as HTMLDetailsElement).open = true;
  }

  private buildKibitz(): void {
    const e = this.el;
    e.kibitzList = h('ul', { id: 'kibitz-list' });
    const text = h('input', { id: 'kibitz-text', type: 'text', maxlength: 500, placeholder: 'a comment', autocomplete: 'off' });
    const send = h('button', { id: 'kibitz-send', type: 'submit' }, 'Send');
    const sw = h('input', { id: 'kibitz-switch', type: 'checkbox' });
    e.kibitzText = text;
    e.kibitzSend = send;
    e.kibitzSwitch = sw;
    e.kibitzSwitchLabel = h('label', { class: 'check', hidden: true }, sw, 'Allow kibitzing');
    e.kibitzOff = h('p', { id: 'kibitz-off', class: 'hint', hidden: true }, 'Kibitzing is off: the players have switched it off for this game.');
    e.kibitzError = h('p', { id: 'kibitz-error', class: 'error' });
    const form = h('form', { class: 'kibitz-entry' }, text, send);
    form.addEventListener('submit', async ev => {
      ev.preventDefault();
      if (!text.value.trim()) return;
      e.kibitzError.textContent = '';
      this.setMessage('');
      send.setAttribute('disabled', '');
      try {
        await api.sendKibitz(this.id, text.value);
        text.value = '';
        await this.refreshKibitz();
      } catch (err) {
        // W5: a refused comment (kibitzing switched off, too many) is said in the kibitz box, under the form.
        e.kibitzError.textContent = errorText(err); // W5
      } finally {
        send.removeAttribute('disabled');
      }
    });
    sw.addEventListener('change', async () => {
      e.kibitzError.textContent = '';
      try {
        await api.switchKibitz(this.id, sw.checked);
      } catch (err) {
        e.kibitzError.textContent = errorText(err);
      }
      void this.refresh();
    });
    e.kibitzForm = form;
    e.kibitzBox = h('section', { class: 'card kibitz-box' }, h('h3', {}, 'Kibitz'), e.kibitzSwitchLabel, e.kibitzOff,
      e.kibitzList, form, e.kibitzError);
  }

  private sizeBoard(): void {
    const px = Math.round(480 * this.opts.scale / 100 / 8) * 8;
    this.el.boardEl.style.width = `${px}px`;
    this.el.boardEl.style.height = `${px}px`;
    // The column under the board takes the board's width, so the panels beside it keep their place.
    this.el.boardCol.style.width = `${Math.max(px, 320)}px`;
    this.board?.redrawAll();
  }

  // ---- talking to the server -------------------------------------------------------------------

  /**
   * Opens the game's event stream after event `after`, the last one the state the page loaded includes,
   * so that it brings what changed since and not the game's whole history (which every non-action
   * event of it would make the page fetch again); null opens it from the start.
   */
  private listen(after: number | null): void {
    const from = after === null ? '' : `?last_event_id=${after}`;
    const es = new EventSource(`/api/games/${encodeURIComponent(this.id)}/events${from}`);
    this.events = es;
    for (const t of EVENT_TYPES) es.addEventListener(t, (ev => this.onEvent(ev as MessageEvent)) as EventListener);
    es.onmessage = ev => this.onEvent(ev);
    // The browser reconnects by itself, sending Last-Event-ID (or the address's number when no event
    // came yet), so no action is missed, and the events replayed carry their clocks, counted from
    // their own time; what changed meanwhile that the events do not carry (offers) comes with a state
    // fetched on reopening.
    es.onopen = () => {
      if (this.streamOpened) void this.refresh();
      this.streamOpened = true;
    };
  }

  /**
   * One event of the game's stream. The stream begins after the state the page loaded, but an action
   * may still be one the page has (its own, confirmed by its reply, or one a later state brought): it
   * is recognised by its ply and coordinates and skipped; an action
   * is played on the page's game, without asking the server for anything: in a game with a clock
   * the event carries the clocks as the action left them. Every other event changes what the rules
   * cannot know (an offer, the status, the seats), and the state is fetched again.
   */
  private onEvent(ev: MessageEvent): void {
    if (ev.type === 'kibitz') {
      void this.refreshKibitz();
      return;
    }
    if (ev.type.startsWith('rematch')) return this.banner.onEvent(ev.type, ev.data as string); // W3 wiring
    if (ev.type === 'time') this.endOnTime(ev.data as string);
    let data: { ply?: unknown; coord?: unknown; clock?: unknown; at?: unknown } = {};
    try {
      data = JSON.parse(ev.data as string) as typeof data;
    } catch {
      // An event without data is still a reason to fetch the state.
    }
    const ply = typeof data.ply === 'number' ? data.ply : null;
    const coord = typeof data.coord === 'string' ? data.coord : '';
    const clock = this.eventClock(Number(ev.lastEventId) || 0, data.clock, data.at);
    if ((ev.type === 'action' && ply !== null && coord) || (ev.type === 'takeback' && ply !== null)) {
      const change = { type: ev.type, ply, coord, clock };
      if (!this.game) this.early.push(change);
      else this.followRecord(change);
      // A live clock's times are the server's: an event without them (from an older server) is
      // followed by the state.
      if (ev.type === 'action' && (clock || this.meta?.clock?.kind !== 'live')) return;
    } else if (clock) {
      this.setClock(clock);
      this.update();
    }
    void this.refresh();
  }

  /**
   * The clocks an event carries ("clock", as they were when it was committed at "at", the server's ms
   * since the epoch), with the moment of this page's performance.now() from which the running side's
   * time counts down: the event's own time, read through the least offset seen between this page's
   * clock and the events' (the machines' clocks may differ by minutes), so that an event read late,
   * replayed after a reconnection, counts from when it happened. Null when the event has none.
   */
  private eventClock(id: number, clock: unknown, at: unknown): EventClock | null {
    if (typeof clock !== 'object' || clock === null || typeof at !== 'number') return null;
    const offset = Date.now() - at;
    this.skew = this.skew === null ? offset : Math.min(this.skew, offset);
    return { id, clock: clock as GameState['clock'], since: performance.now() - (offset - this.skew) };
  }

  /** The clocks of an event, unless the page already shows newer ones (a state read after it). */
  private setClock(c: EventClock): void {
    const m = this.meta;
    if (!m || (c.id && c.id <= this.clockEvent)) return;
    this.meta = { ...m, clock: c.clock };
    this.clockAt = c.since;
    this.clockEvent = c.id;
  }

  /** An action or a take-back of the event stream, played on the page's game, and the clocks it
   *  brought set. */
  private followRecord(change: RecordChange): void {
    if (change.type === 'takeback') {
      if (change.ply < this.record.length) this.replayRecord(this.record.slice(0, change.ply));
      if (change.clock) this.setClock(change.clock);
      this.update();
      return;
    }
    const { ply, coord } = change;
    // Already played: the player's own action, or one a state fetched meanwhile brought.
    if (ply <= this.record.length && this.record[ply - 1] === coord) {
      if (change.clock) {
        this.setClock(change.clock);
        this.update();
      }
      return;
    }
    if (ply > this.record.length + 1) {
      // Actions are missing between the page's game and this one: the server's record fills the gap.
      void this.refresh();
      return;
    }
    const mover = this.local?.to_move ?? this.state?.to_move;
    if (ply <= this.record.length) this.replayRecord([...this.record.slice(0, ply - 1), coord]);
    else this.playCoords([coord]);
    if (mover && ply === this.record.length) this.afterAction(mover);
    if (change.clock) this.setClock(change.clock);
    this.update();
  }

  /** Plays actions of the server's record on the page's game; a refusal (which would mean the rules
   *  of the page and of the server differ) rebuilds the game from the whole record. */
  private playCoords(coords: string[]): void {
    const g = this.game;
    if (!g) return;
    try {
      for (const c of coords) {
        g.play(c);
        this.record.push(c);
      }
    } catch {
      this.replayRecord([...this.record, ...coords]);
    }
    this.local = null;
  }

  /** A new game of this variant from its start, through these actions. Throws the rules' refusal. */
  private replay(coords: string[]): LocalGame {
    const meta = this.meta;
    if (!this.rules || !meta) throw new Error('The rules are not loaded.');
    const g = this.rules.newGame(meta.variant, meta.options, this.startFen);
    try {
      for (const c of coords) g.play(c);
    } catch (e) {
      g.free();
      throw e;
    }
    return g;
  }

  /** The page's game replaced by the same game replayed through `coords` (a take-back, a record
   *  that differs from the server's); the player's unanswered action goes with the old one. */
  private replayRecord(coords: string[]): void {
    let g: LocalGame;
    try {
      g = this.replay(coords);
    } catch (e) {
      this.el.notice.textContent = `The game could not be replayed in the page: ${errorText(e)}`;
      return;
    }
    this.pending?.before.free();
    this.pending = null;
    this.game?.free();
    this.game = g;
    this.record = [...coords];
    this.local = null;
  }

  /**
   * The first state: the rules are loaded, and the record replayed from the game's start, which the
   * state names (`start_fen`, null for the variant's own). From a server that does not name it, node
   * 0 of the record's positions is the start; when the state has no positions either (they are sent
   * when asked), a record that does not reach the state's position from the variant's own start
   * began from a position of its own, and the positions are asked for.
   */
  private async start(s: GameState): Promise<void> {
    this.rules ??= await loadRules();
    this.meta ??= s;
    const coords = s.actions.map(a => a.coord);
    const given = (s as { start_fen?: string | null }).start_fen;
    const named = given !== undefined ? given ?? '' : s.nodes?.[0]?.fen;
    this.startFen = named ?? '';
    let g: LocalGame | null = null;
    try {
      g = this.replay(coords);
    } catch {
      g = null;
    }
    if (named === undefined && (!g || g.fen() !== s.fen)) {
      g?.free();
      const full = await api.state(this.id, '?nodes=1');
      this.startFen = full.nodes?.[0]?.fen ?? '';
      coords.splice(0, coords.length, ...full.actions.map(a => a.coord));
      g = this.replay(coords);
    }
    if (!g) g = this.replay(coords);
    if (this.destroyed) {
      g.free();
      return;
    }
    this.game = g;
    this.record = coords;
    this.local = null;
    for (const change of this.early.splice(0)) this.followRecord(change);
  }

  /**
   * A state fetched again, against the page's game: a record that extends the page's is played on it
   * (actions the events have not brought yet); one the page already extends (events newer than the
   * fetch) changes nothing; one that differs is the server's word, and the game is replayed. While the
   * player's action is unanswered, its answer settles the record instead.
   */
  private catchUp(s: GameState): void {
    if (this.pending || !this.game) return;
    const theirs = s.actions.map(a => a.coord);
    const mine = this.record;
    let common = 0;
    while (common < theirs.length && common < mine.length && theirs[common] === mine[common]) common++;
    if (common === theirs.length) return;
    if (common === mine.length) this.playCoords(theirs.slice(common));
    else this.replayRecord(theirs);
  }

  /**
   * The server's timer ended the game on time: the page shows the result and stops the clocks as the event
   * arrives, without waiting for the state fetched after it (the flagged side's clock shows 0:00.0).
   */
  private endOnTime(data: string): void {
    const s = this.meta;
    let end: { result?: string; reason?: string };
    try {
      end = JSON.parse(data) as { result?: string; reason?: string };
    } catch {
      return;
    }
    if (!s || s.status !== 'active' || !end.result) return;
    let clock = s.clock;
    if (clock?.kind === 'live' && clock.running)
      clock = { ...clock, running: null, [clock.running === 'white' ? 'white_ms' : 'black_ms']: 0 };
    this.meta = { ...s, status: 'over', result: end.result, reason: end.reason ?? null, clock };
    // A state fetched before the event must not bring the game back to life.
    this.applied = ++this.issued;
    this.update();
  }

  /** Fetches the state again; calls made while one is under way are folded into one more fetch. */
  private async refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.refreshAgain = false;
        const n = ++this.issued;
        try {
          const s = await api.state(this.id);
          if (this.destroyed) return;
          if (!this.events) this.listen(s.event);
          if (!this.game) await this.start(s);
          else this.catchUp(s);
          this.el.notice.textContent = '';
          this.apply(s, n);
        } catch (e) {
          if (this.destroyed) return;
          this.el.notice.textContent = e instanceof ApiError && e.status === 404
            ? `There is no game ${this.id}.` : `The game could not be loaded: ${errorText(e)}`;
          if (e instanceof ApiError && e.status === 404) this.el.title.textContent = 'No such game';
          // A first state that could not be read (the server busy, the network down): the stream opens
          // from the start, and its events (the history first) make the page try again.
          else if (!this.events) this.listen(null);
        }
      } while (this.refreshAgain && !this.destroyed);
    } finally {
      this.refreshing = false;
    }
  }

  private async refreshKibitz(): Promise<void> {
    try {
      const reply = await api.kibitz(this.id);
      this.kibitz = reply.kibitz;
      this.renderKibitzList();
    } catch (e) {
      if (!this.destroyed) this.el.kibitzError.textContent = `The kibitz could not be loaded: ${errorText(e)}`;
    }
  }

  /** A state from the server: what the rules cannot know is taken from it (the record was caught up). */
  private apply(s: GameState, n: number): void {
    if (this.destroyed || n < this.applied) return;
    this.applied = n;
    // A state read before the last event whose clocks the page shows keeps them.
    if (this.meta && s.event < this.clockEvent) {
      this.meta = { ...s, clock: this.meta.clock };
    } else {
      this.meta = s;
      this.clockAt = performance.now();
      this.clockEvent = s.event;
    }
    this.update();
  }

  /** The server's state and the rules' view of the page's game, as one state for the page. */
  private compose(): PageState | null {
    const m = this.meta;
    const g = this.game;
    if (!m || !g) return null;
    this.local ??= g.state();
    const l = this.local;
    // An end the rules see (a mate, an obligation unmet) is shown before the server's state says it.
    const endedHere = m.status === 'active' && l.result !== null;
    const status = endedHere ? 'over' : m.status;
    return {
      ...m,
      ply: l.ply, to_move: l.to_move, timelines: l.timelines, check: l.check, fen: l.fen, board: l.board, marks: l.marks,
      actions: l.actions, nodes: l.nodes, legal: status === 'active' ? l.legal : [], kinds: l.kinds, panels: l.panels,
      status, result: endedHere ? l.result : m.result, reason: endedHere ? l.reason : m.reason,
    };
  }

  /** Shows the state after any change of the game or of the server's state. */
  private update(): void {
    const before = this.state;
    const s = this.compose();
    if (!s || this.destroyed) return;
    this.state = s;
    if (!before || before.ply !== s.ply || before.status !== s.status || before.fen !== s.fen) {
      // A new position makes the choices made on the old one meaningless.
      this.selected = null;
      this.placement = null;
      this.choice = null;
      this.preview = null;
      if (this.viewPly !== null && !s.nodes.some(x => x.ply === this.viewPly)) this.viewPly = null;
      this.travelFrame?.cancel(); // W2 wiring
      if (s.status !== 'active') this.board?.cancelPremove();
    }
    this.sounds.follow(before, s); // W3 wiring
    this.render();
    this.playPremove();
  }

  /**
   * What the server does with the clocks and offers when an action is played, done at once so that the
   * page does not wait for the state: the mover's live clock stops with its increment and the other
   * starts, a correspondence deadline is set from now, and the offers lapse. The action's event then
   * gives the exact times.
   */
  private afterAction(mover: Color): void {
    const m = this.meta;
    if (!m) return;
    let clock = m.clock;
    if (clock?.kind === 'live') {
      const field = mover === 'white' ? 'white_ms' : 'black_ms';
      const spent = clock.running === mover ? performance.now() - this.clockAt : 0;
      clock = { ...clock, [field]: clock[field] - spent + clock.inc_ms, running: otherColor(mover) };
    } else if (clock?.kind === 'correspondence') {
      clock = { ...clock, deadline: Date.now() + clock.days_per_move * 86400000 };
    }
    this.meta = { ...m, clock, draw_offer: null, takeback_offer: null };
    this.clockAt = performance.now();
  }

  /** Sends an action (or resign, offer-draw, ...); a refusal's sentence stays in #message until the next one. */
  private async send(action: string): Promise<boolean> {
    const s = this.state;
    if (!s) return false;
    if (!CONTROLS.has(action) && this.game && s.status === 'active' && s.you === s.to_move && !this.pending)
      return this.play(action);
    // Anything else is the server's to judge (an offer, a resignation, an action out of turn).
    if (this.sending) return false;
    this.setMessage('');
    this.sending = true;
    try {
      await api.actBrief(this.id, action, this.record.length);
      void this.refresh();
      return true;
    } catch (e) {
      this.setMessage(errorText(e));
      if (e instanceof ApiError && e.status === 409) void this.refresh();
      return false;
    } finally {
      this.sending = false;
    }
  }

  /**
   * The player's action: played on the page's game and shown at once, then sent; the server's answer
   * confirms it, or refuses it (its rule in #message) and the game goes back to what it was. An action
   * the page's rules refuse is not sent: their sentence is the server's.
   */
  private async play(action: string): Promise<boolean> {
    const g = this.game;
    const s = this.state;
    if (!g || !s) return false;
    this.setMessage('');
    const before = g.clone();
    let played: Action;
    try {
      played = g.play(action);
    } catch (e) {
      before.free();
      this.setMessage(errorText(e));
      // The board may show the piece where the player dropped it: the position goes back.
      this.choice = null;
      this.render();
      return false;
    }
    const ply = this.record.length;
    const token = { before, ply };
    this.pending = token;
    this.record.push(played.coord);
    this.local = null;
    const metaBefore = this.meta;
    this.afterAction(s.to_move);
    const metaAfter = this.meta;
    this.viewPly = null;
    this.update();
    try {
      const reply = await api.actBrief(this.id, played.coord, ply);
      if (this.pending === token) {
        this.pending = null;
        before.free();
      }
      // An end is the server's to say; a live clock's times come with the action's event.
      if (reply.status !== 'active') void this.refresh();
      return true;
    } catch (e) {
      if (this.pending === token) {
        this.pending = null;
        if (this.record.length === ply + 1) {
          this.game?.free();
          this.game = before;
          this.record.length = ply;
          this.local = null;
        } else {
          before.free();
          this.replayRecord(this.record.slice(0, ply));
        }
        if (this.meta === metaAfter) this.meta = metaBefore;
      }
      this.setMessage(errorText(e));
      this.choice = null;
      this.update();
      // A refusal by the rules changes nothing on the server; anything else may have (a take-back
      // accepted meanwhile, a flag): the state says what is.
      if (!(e instanceof ApiError && e.status === 422)) void this.refresh();
      return false;
    }
  }

  private async join(): Promise<void> {
    if (!this.invite) return;
    this.setMessage('');
    try {
      await api.join(this.id, this.invite);
      // The invitation is used up: drop it from the address so a reload shows the plain game.
      history.replaceState(null, '', `/games/${encodeURIComponent(this.id)}`);
    } catch (e) {
      this.setMessage(errorText(e));
    }
    await this.refresh();
  }

  private setMessage(text: string): void {
    this.el.message.textContent = text;
    this.el.message.classList.toggle('shown', text !== '');
  }

  // ---- the position shown ----------------------------------------------------------------------

  private presentNode(): GameNode | undefined {
    return this.state?.nodes.find(n => n.ply === this.state?.ply);
  }

  private shownNode(): GameNode | undefined {
    const s = this.state;
    if (!s) return undefined;
    if (this.viewPly !== null) return s.nodes.find(n => n.ply === this.viewPly) ?? this.presentNode();
    return this.presentNode();
  }

  private show(ply: number | null): void {
    this.viewPly = ply === this.state?.ply ? null : ply;
    this.travelFrame?.cancel(); // W2 wiring
    if (this.viewPly !== null) this.board?.cancelPremove();
    this.placement = null;
    this.selected = null;
    this.choice = null;
    this.render();
  }

  private orientation(): Color {
    return bottomColor(this.opts, this.state?.you ?? null);
  }

  /** Whether the viewer may act on the board now. */
  private canPlay(): boolean {
    const s = this.state;
    return !!s && s.status === 'active' && s.you === s.to_move && this.viewPly === null;
  }

  private legal(): Action[] {
    return this.canPlay() ? this.state?.legal ?? [] : [];
  }

  // ---- board gestures --------------------------------------------------------------------------

  private onMove(orig: string, dest: string, premove = false): void {
    if (this.travelFrame?.onMove(orig, dest)) return; // W2 wiring
    let matches = this.legal().filter(a => !a.at_node && this.kind(a)?.board && a.from === orig && a.to === dest);
    if (premove && matches.length > 1) {
      // A premove is an ordinary move, played without a question: no time travel, and a queen
      // when a pawn promotes (as on lichess).
      const plain = matches.filter(a => !this.kind(a)?.travel);
      const queen = plain.filter(a => a.promo?.toLowerCase() === 'q');
      matches = queen.length === 1 ? queen : plain.length ? plain : matches;
    }
    this.offer(matches);
  }

  /** The move queued during the opponent's turn, played as the turn comes if it is legal then
   *  (chessground drops it otherwise). */
  private playPremove(): void {
    const b = this.board;
    if (b?.state.premovable.current && this.canPlay()) b.playPremove();
  }

  /** Sends the one action matched, or lets the player choose among several. */
  private offer(matches: Action[]): void {
    this.placement = null;
    if (matches.length === 1) {
      this.choice = null;
      this.perform(matches[0]);
    } else if (matches.length > 1) {
      this.choice = matches;
      this.render();
    } else {
      this.render();
    }
  }

  /** What the library says of an action's kind (how it is made), from the state. */
  private kind(a: Action): KindInfo | undefined {
    return this.state?.kinds[a.kind];
  }

  /** The kind of an action in words ("sent forward in time"). */
  private kindWords(a: Action): string {
    return this.kind(a)?.words ?? a.kind;
  }

  /** " to move 3", " arrives at move 7": what an action's number is, or nothing. */
  private argWords(a: Action): string {
    const words = this.kind(a)?.arg;
    return words ? ` ${words} ${a.arg}` : '';
  }

  /** Sends an action chosen on the board or in the chooser; a king going back, or a whole-board
   *  travel, is shown on the preview board first and sent from there. */
  private perform(a: Action): void {
    if (this.kind(a)?.travel === 'back' || a.at_node) {
      this.preview = a;
      if (!a.at_node) this.selected = a.from; // W2: atNode went with generalSection
      this.render();
      return;
    }
    void this.send(a.coord);
  }

  private onSelect(key: string): void {
    if (this.travelFrame?.onSelect(key)) return; // W2 wiring
    if (!this.canPlay()) return;
    if (this.placement) {
      this.placeOn(key);
      return;
    }
    const s = this.state;
    if (!s) return;
    const piece = pieceAt(s.board, key);
    const own = piece !== null && (piece === piece.toUpperCase()) === (s.to_move === 'white');
    const next = own ? key : null;
    if (next !== this.selected) {
      this.selected = next;
      this.preview = null;
      this.renderTravel();
    }
  }

  private placeOn(key: string): void {
    const p = this.placement;
    if (!p) return;
    const other = p.group.first === 'to' ? 'from' : 'to';
    if (p.firstSquare === null) {
      const matches = p.candidates.filter(a => a[p.group.first] === key);
      if (matches.length === 0) {
        this.placement = null;
        this.render();
        return;
      }
      const seconds = new Set(matches.map(a => a[other]));
      if (matches.length === 1 || seconds.size <= 1 || [...seconds].some(x => !isKey(x))) {
        this.offer(matches);
        return;
      }
      // Several actions put this piece here (a van Gog arrival from different squares, an explosion's
      // other square): the board shows the other squares, and the chooser lists the actions.
      this.placement = { ...p, candidates: matches, firstSquare: key };
      this.choice = matches;
      this.render();
      return;
    }
    const matches = p.candidates.filter(a => a[other] === key);
    if (matches.length === 0) return;
    this.offer(matches);
  }

  private startPlacement(group: PlacementGroup, piece: string): void {
    const candidates = this.legal().filter(a => !a.at_node && group.kinds.has(a.kind) && (a.piece ?? '').toUpperCase() === piece);
    this.placement = { group, piece, candidates, firstSquare: null };
    this.choice = null;
    this.selected = null;
    this.board?.unselect();
    this.render();
  }

  // ---- rendering -------------------------------------------------------------------------------

  private render(): void {
    const s = this.state;
    if (!s || this.destroyed) return;
    const e = this.el;
    e.game.setAttribute('data-ply', String(s.ply));
    e.game.setAttribute('data-status', s.status);
    e.game.setAttribute('data-you', s.you ?? '');
    e.game.setAttribute('data-timelines', String(s.timelines));
    // Several variants share a title (van Gog's three modes), so the variant's name follows it.
    fill(e.title, s.title, h('span', { class: 'variant-name' }, ` ${s.variant}${s.options ? `, ${s.options}` : ''}`));
    document.title = tabTitle(s); // W3 wiring
    const seat = (c: Color): string => {
      const p = c === 'white' ? s.white : s.black;
      if (!p) return 'open seat';
      return p.engine ? `${p.name} (engine)` : p.name;
    };
    fill(e.players, h('span', { class: 'white-name' }, `White: ${seat('white')}`), ' · ',
      h('span', { class: 'black-name' }, `Black: ${seat('black')}`),
      s.you ? h('span', { class: 'you' }, ` · you play ${s.you}`) : h('span', { class: 'you' }, ' · you are watching'));
    this.renderStatus();
    this.renderInvite();
    this.renderBoard();
    this.renderPockets();
    this.renderPlacementRows();
    this.renderChoice();
    this.renderTravel();
    this.renderControls();
    this.clocks.update(s, this.orientation(), this.clockAt); this.banner.update(s); // W3 wiring
    fill(e.panels, ...(s.panels.length ? s.panels.map(line => h('div', { class: 'panel-line' }, line)) : [h('div', { class: 'hint' }, 'Nothing to show.')]));
    this.renderMoveList();
    this.renderLegalList();
    this.renderLinks();
    this.renderKibitzState();
    this.timelines?.update(s); // W2 wiring
    (e.moveEntry as HTMLElement).hidden = !s.you;
    // Rows above the board may have appeared or gone: chessground must measure the board again, or
    // it would map clicks to the squares where the board used to be.
    this.board?.state.dom.bounds.clear();
  }

  /** The queued premove in words, with a button that cancels it (a click on the board does too). */
  private renderPremove(): void {
    const box = this.el.premove;
    const current = this.board?.state.premovable.current;
    if (!current || this.destroyed) {
      box.hidden = true;
      fill(box);
      return;
    }
    const cancel = h('button', { type: 'button', id: 'premove-cancel' }, 'Cancel premove');
    cancel.addEventListener('click', () => this.board?.cancelPremove());
    fill(box, h('span', {}, `Premove ${current[0]}–${current[1]}: played when your turn comes, if it is legal then. `), cancel);
    box.hidden = false;
  }

  private renderStatus(): void {
    const s = this.state;
    if (!s) return;
    let text: string;
    if (s.status === 'over') text = [s.result, s.reason].filter(Boolean).join(' ');
    else if (s.status === 'waiting') text = 'Waiting for an opponent to join';
    else if (s.status === 'seek') text = 'Open challenge: waiting for someone to accept it in the lobby'; // W4 seeks
    else if (s.status === 'challenge') text = this.challengeText(s);
    else if (s.status === 'declined') text = `Challenge ${s.reason ?? 'declined'}`;
    else {
      text = s.you === s.to_move ? `Your move (${s.to_move})` : `${capital(s.to_move)} to move`;
      if (s.check) text += ' — check';
    }
    this.el.status.textContent = text;
    this.el.status.className = s.status === 'over' ? 'over' : s.you === s.to_move && s.status === 'active' ? 'your-move' : '';
  }

  /** Who waits for whom, for a challenge not yet answered. */
  private challengeText(s: GameState): string {
    const from = (s.white ?? s.black)?.name ?? 'someone';
    if (s.you) return `Waiting for ${s.challenged ?? 'your opponent'} to accept your challenge`;
    if (this.isChallenged(s)) return `${from} challenges you`;
    return `${from} has challenged ${s.challenged ?? 'a player'}; the game starts when they accept`;
  }

  private isChallenged(s: GameState): boolean {
    return !!this.me && !!s.challenged && this.me.toLowerCase() === s.challenged.toLowerCase();
  }

  /** The challenged player answers on the game page as in the lobby; the challenger may withdraw. */
  private renderChallenge(s: GameState, box: HTMLElement): void {
    const answer = (accept: boolean) => async () => {
      this.setMessage('');
      try {
        await (accept ? api.accept(this.id) : api.decline(this.id));
      } catch (e) {
        this.setMessage(errorText(e));
      }
      await this.refresh();
    };
    const button = (id: string, label: string, accept: boolean) => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', answer(accept));
      return b;
    };
    if (this.isChallenged(s)) {
      fill(box, h('span', {}, 'Play this game? '), button('challenge-accept', 'Accept', true), ' ',
        button('challenge-decline', 'Decline', false));
    } else {
      fill(box, h('span', {}, 'Changed your mind? '), button('challenge-withdraw', 'Withdraw the challenge', false));
    }
    box.hidden = false;
  }

  private renderInvite(): void {
    const s = this.state;
    if (!s) return;
    const box = this.el.invite;
    if (s.status === 'challenge' && (s.you || this.isChallenged(s))) {
      this.renderChallenge(s, box);
    } else if (s.status === 'waiting' && s.you) {
      const link = storedInvite(s.id);
      if (link) {
        const input = h('input', { id: 'invite-link', type: 'text', readonly: true, value: link, size: 60 });
        input.addEventListener('focus', () => input.select());
        const copy = h('button', { type: 'button' }, 'Copy');
        copy.addEventListener('click', () => {
          navigator.clipboard?.writeText(link).then(() => { copy.textContent = 'Copied'; },
            () => { input.select(); copy.textContent = 'Press Ctrl+C'; });
        });
        fill(box, h('span', {}, 'Invite your opponent with this link: '), input, copy);
      } else {
        fill(box, 'The game waits for an opponent; the invitation link was shown when the game was created, in the browser that created it.');
      }
      box.hidden = false;
    } else if (this.invite && !s.you && s.status === 'waiting') {
      if (this.me) {
        fill(box, 'You are invited to play this game: press “Join this game”.');
      } else {
        const next = `/games/${encodeURIComponent(this.id)}?invite=${encodeURIComponent(this.invite)}`;
        fill(box, 'You are invited to play this game. ',
          appLink(`/?next=${encodeURIComponent(next)}`, { id: 'invite-login' }, 'Log in or register'),
          ' first, then you come back here to join.');
      }
      box.hidden = false;
    } else if (this.invite && !s.you) {
      fill(box, 'This invitation has been used: the game has its players.');
      box.hidden = false;
    } else {
      box.hidden = true;
      fill(box);
    }
  }

  private boardShapes(node: GameNode): ReturnType<typeof markShapes> {
    const shapes = markShapes(node.marks);
    if (this.state) shapes.push(...transitShapes(this.state, node)); // W2 wiring
    const p = this.placement;
    if (p && this.viewPly === null) {
      if (p.firstSquare === null) shapes.push(...dotShapes(p.candidates.map(a => a[p.group.first] ?? '')));
      else {
        const other = p.group.first === 'to' ? 'from' : 'to';
        shapes.push(...frameShapes([p.firstSquare]));
        shapes.push(...dotShapes(p.candidates.map(a => a[other] ?? ''), '#2a5db0'));
      }
    }
    if (this.choice && !p && this.viewPly === null) {
      shapes.push(...frameShapes(this.choice.flatMap(a => [a.from ?? '', a.to ?? ''])));
    }
    return shapes;
  }

  private renderBoard(): void {
    const s = this.state;
    const node = this.shownNode();
    if (!s || !node || !this.board) return;
    const present = this.viewPly === null;
    // The player's pieces move on their turn and are premoved on the opponent's.
    const mine = present && s.status === 'active' && s.you !== null;
    const dests = new Map<Key, Key[]>();
    if (this.canPlay()) {
      for (const a of s.legal) {
        if (a.at_node || !this.kind(a)?.board || !isKey(a.from) || !isKey(a.to)) continue;
        const list = dests.get(a.from) ?? [];
        if (!list.includes(a.to)) list.push(a.to);
        dests.set(a.from, list);
      }
    }
    // The last action's squares, for the present position, or for the node shown.
    const last = s.actions.find(a => a.ply === node.ply);
    const lastMove = last ? [last.from, last.to].filter(isKey) : [];
    this.board.set({
      fen: node.board,
      orientation: this.orientation(),
      turnColor: node.side,
      check: present && s.check && s.status === 'active',
      lastMove,
      movable: { free: false, color: mine ? s.you ?? undefined : undefined, dests, showDests: true },
      premovable: { enabled: mine },
      selectable: { enabled: true },
      drawable: { enabled: false, visible: true, autoShapes: this.boardShapes(node) },
    });
    if (this.travelFrame?.active()) this.board.set(this.travelFrame.boardConfig()); // W2 wiring
    this.el.boardWrap.classList.toggle('past', !present);
    const viewing = this.el.viewing;
    if (present) {
      viewing.hidden = true;
      fill(viewing);
    } else {
      const back = h('button', { type: 'button', id: 'view-present' }, 'Back to the present');
      back.addEventListener('click', () => this.show(null));
      fill(viewing, `Showing the position after ply ${node.ply} (move ${node.move}, ${node.side} to play, timeline ${node.timeline}). `, back);
      viewing.hidden = false;
    }
    this.el.textDiagram.textContent = textDiagram(node.board, node.marks, this.orientation());
  }

  /** Chessgi pockets, read from the FEN of the position shown: the bottom colour's below the board. */
  private renderPockets(): void {
    const node = this.shownNode();
    const pockets = node ? parsePockets(node.fen) : null;
    const e = this.el;
    if (!pockets) {
      e.pocketTop.hidden = e.pocketBottom.hidden = true;
      return;
    }
    const bottom = this.orientation();
    const draw = (el: HTMLElement, c: Color): void => {
      el.hidden = false;
      const pieces = pockets[c];
      fill(el, h('span', { class: 'pocket-label' }, `${capital(c)}'s pocket:`),
        ...(pieces.length ? pieces.map(p => pieceIcon(p, c)) : [h('span', { class: 'hint' }, ' empty')]));
    };
    draw(e.pocketTop, otherColor(bottom));
    draw(e.pocketBottom, bottom);
  }

  /** One row of clickable pieces per kind of placement the mover has (drops, arrivals, explosions). */
  private renderPlacementRows(): void {
    const s = this.state;
    const rows: HTMLElement[] = [];
    if (s) {
      const legal = this.legal();
      for (const group of placementGroups(s.kinds)) {
        const acts = legal.filter(a => !a.at_node && group.kinds.has(a.kind) && a.piece);
        if (!acts.length) continue;
        const pieces = [...new Set(acts.map(a => (a.piece ?? '').toUpperCase()))];
        const buttons = pieces.map(p => {
          const count = acts.filter(a => (a.piece ?? '').toUpperCase() === p).length;
          const active = this.placement?.group.name === group.name && this.placement.piece === p;
          const b = h('button', {
            type: 'button', class: active ? 'place active' : 'place', 'data-group': group.name, 'data-piece': p,
            title: `${PIECE_NAMES[p.toLowerCase()] ?? p}: ${count} action${count === 1 ? '' : 's'}`,
          }, pieceIcon(colored(p, s.to_move), s.to_move));
          b.addEventListener('click', () => {
            if (active) {
              this.placement = null;
              this.render();
            } else this.startPlacement(group, p);
          });
          return b;
        });
        rows.push(h('div', { class: 'placement-row', 'data-group': group.name }, h('span', { class: 'row-label' }, `${group.label}:`), ...buttons));
      }
      if (this.placement) {
        const p = this.placement;
        const what = p.firstSquare === null
          ? (p.group.first === 'to' ? 'Click the square it goes to.' : 'Click the explosion square.')
          : (p.group.first === 'to' ? 'Click the square it comes from (or choose below).' : 'Click the other square (or choose below).');
        const cancel = h('button', { type: 'button', class: 'link-button' }, 'cancel');
        cancel.addEventListener('click', () => {
          this.placement = null;
          this.choice = null;
          this.render();
        });
        rows.push(h('div', { class: 'hint placement-help' }, `${PIECE_NAMES[p.piece.toLowerCase()] ?? p.piece} chosen. ${what} `, cancel));
      }
    }
    fill(this.el.placement, ...rows);
  }

  private renderChoice(): void {
    const box = this.el.choice;
    const c = this.choice;
    if (!c || !this.canPlay()) {
      box.hidden = true;
      fill(box);
      return;
    }
    const cancel = h('button', { type: 'button', class: 'cancel' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.choice = null;
      this.placement = null;
      this.render();
    });
    fill(box, h('div', { class: 'choice-head' }, 'Several actions match: choose one.'),
      ...c.map(a => {
        const b = h('button', { type: 'button', 'data-coord': a.coord, title: a.coord }, a.human,
          h('span', { class: 'kind' }, ` ${this.kindWords(a)}${a.promo ? ` to ${PIECE_NAMES[a.promo.toLowerCase()] ?? a.promo}` : ''}${this.kind(a)?.travel === 'back' ? this.argWords(a) : ''}`));
        b.addEventListener('click', () => {
          this.choice = null;
          this.perform(a);
        });
        return b;
      }), cancel);
    box.hidden = false;
  }

  /** The node a king going back lands in: move `arg` with its side to move, on the present timeline. */
  private backNode(a: Action): GameNode | undefined {
    const s = this.state;
    const present = this.presentNode();
    if (!s || !present) return undefined;
    const chain = chainTo(nodeByPly(s), present);
    if (a.at_node) return chain.find(n => n.ply === a.arg) ?? s.nodes.find(n => n.ply === a.arg);
    return chain.find(n => n.move === a.arg && n.side === s.to_move);
  }

  private renderTravel(): void {
    const e = this.el;
    const s = this.state;
    this.previewBoard?.destroy();
    this.previewBoard = null;
    const parts: HTMLElement[] = [];
    const legal = this.legal();
    if (s && this.selected) {
      const key = this.selected;
      const acts = legal.filter(a => !a.at_node && this.kind(a)?.travel && a.from === key);
      const letter = pieceAt(s.board, key);
      const name = letter ? `${PIECE_NAMES[letter.toLowerCase()] ?? letter} on ${key}` : key;
      if (acts.length) parts.push(h('h3', {}, `Time travel of the ${name}`));
      else if (legal.some(a => this.kind(a)?.travel)) parts.push(h('p', { class: 'hint' }, `The ${name} has no time travel now.`));
      const forward = acts.filter(a => this.kind(a)?.travel === 'forward');
      if (forward.length) parts.push(this.forwardSection(forward));
      // W2: a king's way back is chosen on the timelines (timelines.ts), no longer from buttons here.
      const departs = acts.filter(a => this.kind(a)?.travel === 'depart');
      if (departs.length) {
        parts.push(h('div', { class: 'travel-group' }, h('div', { class: 'group-label' }, 'Depart in time:'),
          ...departs.map(a => this.actionButton(a, `${a.human} (${this.kindWords(a)})`))));
      }
    }
    // W2: a Chessgi general travel is chosen on the timelines (timelines.ts), no longer from buttons here.
    if (this.preview) parts.push(this.previewSection(this.preview));
    fill(e.travel, ...parts);
    e.travel.hidden = parts.length === 0;
    if (this.preview) this.drawPreview(this.preview);
  }

  private actionButton(a: Action, label: string, onClick?: () => void): HTMLButtonElement {
    const b = h('button', { type: 'button', 'data-coord': a.coord, title: a.human }, label);
    b.addEventListener('click', onClick ?? (() => void this.send(a.coord)));
    return b;
  }

  private forwardSection(forward: Action[]): HTMLElement {
    const args = forward.map(a => a.arg).sort((x, y) => x - y);
    const previous = this.el.travel.querySelector<HTMLInputElement>('#forward-move');
    const input = h('input', { id: 'forward-move', type: 'number', min: args[0], max: args[args.length - 1], step: 1, value: args[0] });
    if (previous && previous.dataset.from === forward[0].from && args.includes(Number(previous.value))) input.value = previous.value;
    input.dataset.from = forward[0].from ?? '';
    const confirm = h('button', { id: 'forward-confirm', type: 'button' }, 'Send forward');
    confirm.addEventListener('click', () => {
      const n = Number(input.value);
      const a = forward.find(x => x.arg === n);
      if (!a) {
        this.setMessage(`${pieceOfSend(forward[0])} cannot be sent to move ${input.value}: it may go to move ${args.join(', ')}.`);
        return;
      }
      void this.send(a.coord);
    });
    input.addEventListener('keydown', ev => {
      if (ev.key === 'Enter') confirm.click();
    });
    // A button per legal move number picks it (the number field follows); the player then confirms.
    const buttons = forward.map(a => this.actionButton(a, a.human, () => {
      input.value = String(a.arg);
      markPicked();
      input.focus();
    }));
    const markPicked = (): void => {
      for (const [i, b] of buttons.entries()) b.classList.toggle('active', String(forward[i].arg) === input.value);
    };
    input.addEventListener('input', markPicked);
    markPicked();
    return h('div', { class: 'travel-group' },
      h('div', { class: 'group-label' }, `Send ${pieceOfSend(forward[0])} forward to move:`),
      h('div', { class: 'arg-buttons' }, ...buttons),
      h('div', { class: 'forward-entry' }, input, confirm));
  }

  // W2: backSection and generalSection removed: the timelines view offers those travels (BoardHost.offerTravel).

  private previewSection(a: Action): HTMLElement {
    const node = this.backNode(a);
    const confirm = h('button', { id: 'back-confirm', type: 'button', 'data-coord': a.coord }, `Confirm ${a.human}`);
    confirm.addEventListener('click', () => void this.send(a.coord));
    const cancel = h('button', { type: 'button' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.preview = null;
      this.renderTravel();
    });
    const caption = node
      ? `${a.human}: the position at move ${node.move}, ${node.side} to play (ply ${node.ply}, timeline ${node.timeline})`
      : `${a.human}: the earlier position is not in the record sent by the server.`;
    return h('div', { class: 'preview' }, h('div', { class: 'caption' }, caption),
      h('div', { id: 'back-preview', class: 'mini-board' }), h('div', { class: 'buttons' }, confirm, cancel));
  }

  private drawPreview(a: Action): void {
    const node = this.backNode(a);
    const el = this.el.travel.querySelector<HTMLElement>('#back-preview');
    if (!node || !el || !this.state) return;
    let board = node.board;
    const squares: string[] = [];
    const traveller = isKey(a.from) ? pieceAt(this.state.board, a.from) : null;
    if (this.kind(a)?.travel === 'back' && isKey(a.to) && traveller) {
      // Show the piece from the future (a king going back) already standing where it lands.
      board = placeOn(board, a.to, traveller);
      squares.push(a.to);
    } else {
      if (isKey(a.from)) squares.push(a.from);
      if (isKey(a.to)) squares.push(a.to);
    }
    this.previewBoard = makeViewBoard(el, board, this.orientation(), [...markShapes(node.marks), ...frameShapes(squares)]);
  }

  private renderControls(): void {
    const s = this.state;
    if (!s) return;
    const e = this.el;
    const active = s.status === 'active';
    const player = s.you !== null;
    const theirDraw = !!s.draw_offer && s.draw_offer !== s.you;
    const theirTakeback = !!s.takeback_offer && s.takeback_offer !== s.you;
    e.join.hidden = !(this.invite && this.me && !player && s.status === 'waiting');
    e.resign.hidden = !(player && active);
    e['offer-draw'].hidden = !(player && active && !s.draw_offer);
    e['accept-draw'].hidden = !(player && active && theirDraw);
    e['offer-takeback'].hidden = !(player && active && !s.takeback_offer && s.ply > 0);
    e['accept-takeback'].hidden = !(player && active && theirTakeback);
    e.decline.hidden = !(player && active && (theirDraw || theirTakeback));
    const offers: string[] = [];
    if (s.draw_offer) offers.push(s.draw_offer === s.you ? 'You offer a draw.' : `${capital(s.draw_offer)} offers a draw.`);
    if (s.takeback_offer) offers.push(s.takeback_offer === s.you ? 'You offer a take-back.' : `${capital(s.takeback_offer)} offers a take-back.`);
    e.offers.textContent = offers.join(' ');
  }

  private renderMoveList(): void {
    if (this.state) this.moveTree?.update(this.state, this.viewPly); // W2 wiring: the move list is movelist.ts
  }

  private renderLegalList(): void {
    const s = this.state;
    if (!s) return;
    const legal = this.legal();
    this.el.legalSummary.textContent = `All legal actions (${legal.length})`;
    // The same list is kept as it is, not drawn again: a render while the player clicks (a state
    // fetched again, an event) would otherwise replace the button under the pointer between the
    // press and the release, and the click would be lost; and thousands of buttons cost time.
    const key = legal.length ? `${s.ply} ${s.fen} ${legal.length}` : `${s.status} ${s.you} ${this.viewPly} ${s.to_move}`;
    if (key === this.legalKey) return;
    this.legalKey = key;
    if (!legal.length) {
      const why = s.status !== 'active' ? 'The game is not in progress.'
        : !s.you ? 'Spectators cannot act.'
        : this.viewPly !== null ? 'Showing an earlier position: go back to the present to act.'
        : 'It is not your move.';
      fill(this.el.legalList, h('p', { class: 'hint' }, why));
      return;
    }
    // Grouped by kind, so that a list of thousands (van Gog's arrivals) stays readable.
    const groups = new Map<string, Action[]>();
    for (const a of legal) {
      const k = a.at_node ? 'travel to an earlier position' : this.kindWords(a);
      groups.set(k, [...(groups.get(k) ?? []), a]);
    }
    const sections = [...groups.entries()].map(([k, acts]) =>
      h('div', { class: 'legal-group' }, h('div', { class: 'group-label' }, `${capital(k)} (${acts.length})`),
        ...acts.map(a => this.actionButton(a, a.human))));
    fill(this.el.legalList, ...sections);
  }

  private renderLinks(): void {
    const s = this.state;
    const node = this.shownNode();
    if (!s || !node) return;
    const base = `/api/games/${encodeURIComponent(s.id)}`;
    this.el.pgn.setAttribute('href', `${base}/pgn`);
    this.el.sheets.setAttribute('href', `${base}/sheets`);
    const q = new URLSearchParams({ ply: String(node.ply), orientation: this.orientation(), set: this.opts.pieces, colors: this.opts.colors });
    this.el.diagram.setAttribute('href', `${base}/diagram.svg?${q.toString()}`);
  }

  private newFromHere(): void {
    const s = this.state;
    const node = this.shownNode();
    if (!s || !node) return;
    const q = new URLSearchParams({ variant: s.variant, options: s.options, fen: node.fen });
    navigate(`/?${q.toString()}`);
  }

  private renderKibitzState(): void {
    const s = this.state;
    if (!s) return;
    const e = this.el;
    (e.kibitzSwitch as HTMLInputElement).checked = s.kibitz_enabled;
    e.kibitzSwitchLabel.hidden = !s.you || s.status === 'over';
    e.kibitzOff.hidden = s.kibitz_enabled;
    // Writing stays possible while kibitzing is off: the server's refusal then says why, in #kibitz-error. // W5
    const canWrite = !!this.me;
    (e.kibitzText as HTMLInputElement).disabled = !canWrite;
    (e.kibitzSend as HTMLButtonElement).disabled = !canWrite;
    (e.kibitzText as HTMLInputElement).placeholder = !this.me ? 'log in to comment' : s.kibitz_enabled ? 'a comment' : 'kibitzing is off';
  }

  private renderKibitzList(): void {
    const list = this.el.kibitzList;
    fill(list, ...this.kibitz.map(k => {
      const li = h('li', { class: 'kibitz' });
      // Strictly text: a comment is never markup.
      const name = h('span', { class: 'kibitz-name' });
      name.textContent = k.name;
      const text = h('span', { class: 'kibitz-text' });
      text.textContent = k.text;
      const at = h('span', { class: 'kibitz-at' });
      at.textContent = new Date(k.at).toLocaleTimeString();
      li.append(name, ': ', text, ' ', at);
      return li;
    }));
    if (!this.kibitz.length) list.append(h('li', { class: 'hint' }, 'No comments yet.'));
    list.scrollTop = list.scrollHeight;
  }
}
