// SPDX-License-Identifier: GPL-3.0-or-later
//
// The server's JSON API (docs/api.md) as typed fetch wrappers. Every failure becomes an ApiError
// whose message is a sentence fit to show the user: the server's own `error` sentence when it sent
// one, otherwise a description of what went wrong with the request.

export type Color = 'white' | 'black';

export function otherColor(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}

/** A kind of action by its name ("normal", "send-forward", ...): the library's, so any game's. */
export type ActionKind = string;

/** How a player makes an action of a kind, as the library describes it (docs/api.md, "kinds"). */
export interface KindInfo {
  /** "sent forward in time". */
  words: string;
  /** Made by moving a piece from one square to another. */
  board: boolean;
  /** A time travel of the piece on `from`: to a later move (`arg`), back to move `arg`, or a departure. */
  travel: 'forward' | 'back' | 'depart' | null;
  /** A piece put on the board from beside it: its row, the row's label, which square is chosen first. */
  place: { group: string; label: string; first: 'to' | 'from' } | null;
  /** What `arg` is, before its number ("arrives at move"), or null. */
  arg: string | null;
}

/** One legal action or one played action (played ones carry `ply`). */
export interface Action {
  coord: string;
  human: string;
  kind: ActionKind;
  from: string | null;
  to: string | null;
  piece: string | null;
  promo: string | null;
  arg: number;
  at_node: boolean;
  ply?: number;
}

export interface GameNode {
  ply: number;
  parent: number;
  timeline: number;
  fen: string;
  move: number;
  side: Color;
  board: string;
  marks: Record<string, string>;
}

export interface Seat {
  name: string;
  engine: boolean;
}

export interface LiveClock {
  kind: 'live';
  base_ms: number;
  inc_ms: number;
  white_ms: number;
  black_ms: number;
  running: Color | null;
}

export interface CorrespondenceClock {
  kind: 'correspondence';
  days_per_move: number;
  deadline: number | null;
}

export interface GameState {
  id: string;
  variant: string;
  title: string;
  options: string;
  white: Seat | null;
  black: Seat | null;
  you: Color | null;
  ply: number;
  to_move: Color;
  timelines: number;
  fen: string;
  board: string;
  marks: Record<string, string>;
  check: boolean;
  status: GameStatus;
  result: string | null;
  reason: string | null;
  actions: Action[];
  nodes: GameNode[];
  legal: Action[];
  /** Every kind of action in `actions` and `legal`, by name. */
  kinds: Record<string, KindInfo>;
  panels: string[];
  clock: LiveClock | CorrespondenceClock | null;
  draw_offer: Color | null;
  takeback_offer: Color | null;
  kibitz_enabled: boolean;
  /** Counted in the players' ratings (docs/api.md, "Ratings"). */
  rated?: boolean;
  /** The number of the last event of the game this state includes: the event stream is opened after it. */
  event: number;
  /** The player challenged to this game (absent for other games). */
  challenged?: string;
}

/** The reply to an action sent with `"reply": "brief"`. */
export interface BriefReply {
  id: string;
  ply: number;
  to_move: Color;
  status: GameStatus;
  result: string | null;
  reason: string | null;
}

export interface Variant {
  name: string;
  title: string;
  options: string;
  start_fen: string;
}

/**
 * `seek`: an open challenge, listed in every lobby until someone accepts it (seeks.ts);
 * `challenge`: the game names an opponent who has not accepted yet; `declined`: they declined it or
 * its challenger withdrew it (`reason` says which).
 */
export type GameStatus = 'waiting' | 'seek' | 'challenge' | 'active' | 'over' | 'declined';

export interface GameSummary {
  id: string;
  variant: string;
  white: string | null;
  black: string | null;
  status: GameStatus;
  ply: number;
  your_move: boolean;
  result: string | null;
  reason: string | null;
  kind: string;
  /** The player a challenge names, while their seat is empty (when the server says it). */
  opponent?: string | null;
}

/** A challenge received and still open (GET /api/games). */
export interface Challenge {
  id: string;
  variant: string;
  title: string;
  from: string;
  /** The colour the challenged player would play. */
  color: Color;
  /** "5+2" or "3 days". */
  time: string;
  options: string | null;
  created: number | string;
}

export interface GamesReply {
  name: string;
  games: GameSummary[];
  /** Absent from a server older than challenges. */
  challenges?: Challenge[];
}

/** A personal API token as listed: its secret is shown only by the reply that created it. */
export interface TokenInfo {
  id: number | string;
  label: string;
  created: number | string;
  last_used: number | string | null;
}

export interface NewToken extends TokenInfo {
  token: string;
}

export interface KibitzMessage {
  name: string;
  text: string;
  at: number;
}

export interface NewGameRequest {
  variant: string;
  options?: string;
  fen?: string | null;
  color: 'white' | 'black' | 'random';
  clock?: { minutes: number; increment: number };
  days_per_move?: number;
  opponent?: string;
  level?: number;
  /** Counted in the players' ratings (default true between two players; never against the engine). */
  rated?: boolean;
}

export interface NewGameReply {
  id: string;
  url: string;
  invite_url: string | null;
  /** True when the game names an opponent, who must accept it first. */
  challenge?: boolean;
}

/** A failed request: `status` is the HTTP status (0 when the server could not be reached). */
export class ApiError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One JSON request of the API; a refusal throws ApiError with the server's own sentence. Every page's
 *  requests go through it (api below, seeks.ts, tournaments-api.ts). */
export async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let reply: Response;
  try {
    reply = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, `The server could not be reached (${method} ${path}): ${String(e)}.`);
  }
  const text = await reply.text();
  let data: unknown = null;
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      // A reply that is not JSON is reported below with its status.
    }
  }
  if (!reply.ok) {
    const sentence = data !== null && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
      ? (data as { error: string }).error
      : `The server answered ${reply.status} ${reply.statusText} to ${method} ${path}.`;
    throw new ApiError(reply.status, sentence);
  }
  if (data === null && text !== '')
    throw new ApiError(reply.status, `The server's reply to ${method} ${path} is not JSON.`);
  return data as T;
}

export const api = {
  register: (name: string, password: string) => request<{ name: string }>('POST', '/api/register', { name, password }),
  login: (name: string, password: string) => request<{ name: string }>('POST', '/api/login', { name, password }),
  logout: () => request<unknown>('POST', '/api/logout', {}),
  session: () => request<{ name: string | null }>('GET', '/api/session'),
  games: () => request<GamesReply>('GET', '/api/games'),
  variants: () => request<{ variants: Variant[] }>('GET', '/api/variants'),
  createGame: (req: NewGameRequest) => request<NewGameReply>('POST', '/api/games', req),
  join: (id: string, invite: string) => request<unknown>('POST', `/api/games/${encodeURIComponent(id)}/join`, { invite }),
  /** The state as the server sends it by default, for a page that has the rules and computes the
   *  legal actions and the positions itself; `query` asks for more (`?nodes=1`). */
  state: (id: string, query = '') => request<GameState>('GET', `/api/games/${encodeURIComponent(id)}${query}`),
  /** An action answered with the brief reply, for a page that has already played it with its own rules. */
  actBrief: (id: string, action: string, ply: number) =>
    request<BriefReply>('POST', `/api/games/${encodeURIComponent(id)}/actions`, { action, ply, reply: 'brief' }),
  kibitz: (id: string) => request<{ kibitz: KibitzMessage[] }>('GET', `/api/games/${encodeURIComponent(id)}/kibitz`),
  sendKibitz: (id: string, text: string) => request<unknown>('POST', `/api/games/${encodeURIComponent(id)}/kibitz`, { text }),
  switchKibitz: (id: string, enabled: boolean) =>
    request<{ enabled: boolean }>('POST', `/api/games/${encodeURIComponent(id)}/kibitz`, { enabled }),
  /** Accepting a challenge received (the game becomes active). */
  accept: (id: string) => request<{ id: string }>('POST', `/api/games/${encodeURIComponent(id)}/accept`, {}),
  /** Declining a challenge received, or withdrawing one sent. */
  decline: (id: string) => request<{ id: string }>('POST', `/api/games/${encodeURIComponent(id)}/decline`, {}),
  blocks: () => request<{ blocked: string[] }>('GET', '/api/blocks'),
  block: (name: string) => request<unknown>('POST', '/api/blocks', { name }),
  unblock: (name: string) => request<unknown>('DELETE', `/api/blocks/${encodeURIComponent(name)}`),
  tokens: () => request<{ tokens: TokenInfo[] }>('GET', '/api/tokens'),
  createToken: (label: string) => request<NewToken>('POST', '/api/tokens', { label }),
  revokeToken: (id: number | string) => request<unknown>('DELETE', `/api/tokens/${encodeURIComponent(String(id))}`),
};

/**
 * A time of the API as milliseconds since 1970: the server sends milliseconds; seconds (a number
 * below 10^11, before 1973 in ms) and ISO strings are read too. Null for none or a bad one.
 */
export function timeMs(t: number | string | null | undefined): number | null {
  if (t === null || t === undefined || t === '') return null;
  if (typeof t === 'number') return Number.isFinite(t) ? (t < 1e11 ? t * 1000 : t) : null;
  if (/^\d+$/.test(t)) return timeMs(Number(t));
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** The message of any thrown value, as a sentence for the page. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
