// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's copy of the game and its link to the server (the base of the page's class, game.ts).
// The page plays the game by the library's rules in the page (rules.ts): the record is read once
// from the server and replayed, and from then on each action of the game's event stream is played on
// that copy, so that the legal actions, the positions and the timelines are computed here, never
// downloaded; a live clock's times come with the events. The server's state is fetched only for what
// the rules and the events cannot tell (players, offers, an end by resignation, agreement or time).

import { api, ApiError, errorText, type Action, type Color, type GameNode, type GameState } from './api';
import { measureFirstState, takePrefetched } from './game-prefetch';
import { loadRules, type LocalGame, type LocalState, type Rules } from './rules';

/** The page's state: the server's (players, status, clocks, offers) with the position, the record
 *  and the legal actions as the page's own rules compute them. */
export type PageState = GameState & { legal: Action[]; nodes: GameNode[] };

/** The clocks an event brought: its number, the clocks as the server committed them with it, and the
 *  moment (performance.now()) from which the running side's time counts down. */
export interface EventClock {
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

const EVENT_TYPES = ['action', 'takeback', 'resign', 'accept-draw', 'offer-draw', 'offer-takeback', 'decline', 'time', 'accepted',
  'declined', 'joined', 'kibitz', 'kibitz-switch', 'rematch-offer', 'rematch', 'rematch-declined'];

export abstract class GameSync {
  /** What the page shows: `meta` and the rules' view of `game`, put together by compose(). */
  protected state: PageState | null = null;
  /** The server's state, for what the rules cannot know; its record is read only to start or to catch up. */
  protected meta: GameState | null = null;
  protected rules: Rules | null = null;
  /** The page's own copy of the game at the present, with the player's action while it is being sent. */
  protected game: LocalGame | null = null;
  /** The start position of the game ('' for the variant's own), as the library reads it. */
  protected startFen = '';
  /** The actions played on `game`, by their coordinates, in order: index i is ply i + 1. */
  protected record: string[] = [];
  /** What the rules say of `game`, computed once after each change of it. */
  protected local: LocalState | null = null;
  /** The player's action sent and not yet answered: the game as it was before it, and its ply. */
  protected pending: { before: LocalGame; ply: number } | null = null;
  /** Actions and take-backs of the event stream that came before the game was loaded, in order. */
  protected early: RecordChange[] = [];
  /** The event stream has opened once: each later opening is a reconnection. */
  protected streamOpened = false;
  protected events: EventSource | null = null;
  /** When (performance.now()) the running side's time in `meta.clock` was what it reads. */
  protected clockAt = 0;
  /** The event whose clocks `meta.clock` holds (or the last event of the state that brought them): an
   *  older event, or a state read before a newer event, does not set them back. */
  protected clockEvent = 0;
  protected takebackEvent = 0; // the last take-back's event: a state read before it is stale (catchUp)
  /** The least difference seen between this page's Date.now() and an event's `at`: the offset of the two machines'
   *  clocks plus the quickest delivery, so that an event read late (replayed after a reconnection) is counted
   *  from its own time and not from its arrival. */
  protected skew: number | null = null;
  protected destroyed = false;

  /** Requests are numbered so that a slow reply never replaces the state a later one brought. */
  protected issued = 0;
  protected applied = 0;
  protected refreshing = false;
  protected refreshAgain = false;

  // The parts of the page that live as long as the page, so inputs keep what is typed in them.
  protected readonly el: Record<string, HTMLElement> = {};

  constructor(protected readonly id: string) {}

  /** Shows the state after any change of the game or of the server's state. */
  protected abstract update(): void;
  /** The kibitz changed: the page reads it again. */
  protected abstract kibitzChanged(): void;
  /** What the server does with the clocks and offers when `mover` plays, done at once (game-play.ts). */
  protected abstract afterAction(mover: Color): void;
  /** The server says there is no such game (game-play.ts). */
  protected abstract noSuchGame(): void;
  /** A rematch offered, accepted or declined after the game (the end-of-game banner says it). */
  protected abstract rematchEvent(type: string, data: string): void;

  // ---- talking to the server -------------------------------------------------------------------

  /**
   * Opens the game's event stream after event `after`, the last one the state the page loaded includes, so that it
   * brings what changed since and not the game's whole history (which every non-action event of it would make the
   * page fetch again); null opens it from the start.
   */
  protected listen(after: number | null): void {
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
   * One event of the game's stream. The stream begins after the state the page loaded, but an action may still be one
   * the page has (its own, confirmed by its reply, or one a later state brought): it is recognised by its ply and
   * coordinates and skipped; an action is played on the page's game, without asking the server for anything: in a
   * game with a clock the event carries the clocks as the action left them. Every other event changes what the rules
   * cannot know (an offer, the status, the seats), and the state is fetched again.
   */
  protected onEvent(ev: MessageEvent): void {
    if (ev.type.startsWith('rematch')) return this.rematchEvent(ev.type, ev.data as string);
    if (ev.type === 'kibitz') {
      this.kibitzChanged();
      return;
    }
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
    if (ev.type === 'takeback') this.takebackEvent = Math.max(this.takebackEvent, Number(ev.lastEventId) || 0);
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
   * The clocks an event carries ("clock", as they were when it was committed at "at", the server's ms since the
   * epoch), with the moment of this page's performance.now() from which the running side's time counts down: the
   * event's own time, read through the least offset seen between this page's clock and the events' (the machines'
   * clocks may differ by minutes), so that an event read late, replayed after a reconnection, counts from when it
   * happened. Null when the event has none.
   */
  protected eventClock(id: number, clock: unknown, at: unknown): EventClock | null {
    if (typeof clock !== 'object' || clock === null || typeof at !== 'number') return null;
    const offset = Date.now() - at;
    this.skew = this.skew === null ? offset : Math.min(this.skew, offset);
    return { id, clock: clock as GameState['clock'], since: performance.now() - (offset - this.skew) };
  }

  /** The clocks of an event, unless the page already shows newer ones (a state read after it). */
  protected setClock(c: EventClock): void {
    const m = this.meta;
    if (!m || (c.id && c.id <= this.clockEvent)) return;
    this.meta = { ...m, clock: c.clock };
    this.clockAt = c.since;
    this.clockEvent = c.id;
  }

  /** An action or a take-back of the event stream, played on the page's game, and the clocks it
   *  brought set. */
  protected followRecord(change: RecordChange): void {
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
  protected playCoords(coords: string[]): void {
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
  protected replay(coords: string[]): LocalGame {
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
  protected replayRecord(coords: string[]): void {
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
   * The first state: the rules are loaded, and the record replayed from the game's start, which the state names
   * (`start_fen`, null for the variant's own). From a server that does not name it, node 0 of the record's positions
   * is the start; when the state has no positions either (they are sent when asked), a record that does not reach the
   * state's position from the variant's own start began from a position of its own, and the positions are asked for.
   */
  protected async start(s: GameState): Promise<void> {
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
   * A state fetched again, against the page's game: a record that extends the page's is played on it (actions the
   * events have not brought yet); one the page already extends (events newer than the fetch) changes nothing; one
   * that differs is the server's word, and the game is replayed. While the player's action is unanswered, its answer
   * settles the record instead; a state read before a take-back the page followed is ignored (it would play the
   * actions taken back again, and keep them for good).
   */
  protected catchUp(s: GameState): void {
    if (this.pending || !this.game || s.event < this.takebackEvent) return;
    const theirs = s.actions.map(a => a.coord), mine = this.record;
    let common = 0;
    while (common < theirs.length && common < mine.length && theirs[common] === mine[common]) common++;
    if (common === theirs.length) return;
    if (common === mine.length) this.playCoords(theirs.slice(common));
    else this.replayRecord(theirs);
  }

  /**
   * The server's timer ended the game on time: the page shows the result and stops the clocks as the event arrives,
   * without waiting for the state fetched after it (the flagged side's clock shows 0:00.0).
   */
  protected endOnTime(data: string): void {
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
  protected async refresh(): Promise<void> {
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
          const s = await (takePrefetched(this.id) ?? api.state(this.id));
          if (this.destroyed) return;
          if (!this.events) this.listen(s.event);
          const first = !this.game, started = performance.now();
          if (first) await this.start(s);
          else this.catchUp(s);
          const replayed = performance.now();
          this.el.notice.textContent = '';
          this.apply(s, n);
          if (first) measureFirstState(started, replayed);
        } catch (e) {
          if (this.destroyed) return;
          this.el.notice.textContent = e instanceof ApiError && e.status === 404
            ? `There is no game ${this.id}.` : `The game could not be loaded: ${errorText(e)}`;
          if (e instanceof ApiError && e.status === 404) this.noSuchGame();
          // A first state that could not be read (the server busy, the network down): the stream opens
          // from the start, and its events (the history first) make the page try again.
          else if (!this.events) this.listen(null);
        }
      } while (this.refreshAgain && !this.destroyed);
    } finally {
      this.refreshing = false;
    }
  }

  /** A state from the server: what the rules cannot know is taken from it (the record was caught up). */
  protected apply(s: GameState, n: number): void {
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
  protected compose(): PageState | null {
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
}
