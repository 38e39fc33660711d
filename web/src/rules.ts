// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rules in the page: the library (src/core .. src/engine, src/record) compiled to WebAssembly
// (web/dist/ttchess.wasm, `make web`), with its exports in src/wasm/wasm.c. This is the only client
// file that knows it is WebAssembly: the game page, the analysis board, the editor and the engine's
// worker use the API below (the contract of issue 26).
//
// The module is built by clang for wasm32-wasi with no glue: this file instantiates it and gives it
// the few WASI functions its C library imports (a clock; the files it never writes refuse). Strings
// cross as NUL-terminated UTF-8 in the module's memory: ours are written into blocks from
// wasm_alloc, and each text the module answers is a block of its own, read here and given back to
// wasm_free. A call that fails answers 0, and wasm_error() says why in the library's words.

import type { Action, GameState } from './api';
import { assetUrl } from './assets';

/** The library's own sentence for a refusal (an illegal action, a bad FEN, a bad option). */
export class RulesError extends Error {}

export interface VariantInfo {
  name: string;
  title: string;
  options: string;
  start_fen: string;
}

export interface Rules {
  variants(): VariantInfo[];
  /** A game from the start (fen omitted or '') or from a FEN; options as the server writes them
   *  ("forward=8 back=3", '' for the defaults). Throws RulesError with the library's sentence. */
  newGame(variant: string, options?: string, fen?: string): LocalGame;
  /** null when the FEN can be used; otherwise the sentence the CLI gives for it. */
  checkFen(variant: string, options: string, fen: string): string | null;
  /** The parts of the variant's FEN beyond chess's six fields ([] for chess), for the board editor. */
  fenParts(variant: string): FenPart[];
}

/** A part of a variant's FEN beyond chess's (src/history/variant.h, FenPart): a mark after a piece's
 *  letter, pockets between brackets after the placement, or field number `field` (7, 8, ...). */
export interface FenPart {
  name: string;      // "arrivals"
  label: string;     // "Arrivals pending"
  words: string;     // what it holds and how it is written
  example: string;   // "P5,Bb8" (one side's, for a part per side)
  place: 'field' | 'marks' | 'pockets';
  field: number;     // place 'field': its number among the FEN's fields
  per_side: boolean; // each side has its own (a field: "White's/Black's")
  empty: string;     // the value that says "none" ("-", "0"; one side's)
  values: string;    // marks: the marks in the order an editor cycles them; pockets: the piece letters
}

/** What the server's GET /api/games/{id} says of the position and the record (docs/api.md),
 *  computed here: same field names and meanings. */
export type LocalState = Pick<GameState, 'ply' | 'to_move' | 'timelines' | 'check' | 'fen' | 'board' | 'marks' |
  'result' | 'reason' | 'actions' | 'nodes' | 'legal' | 'kinds' | 'panels'>;

export type Score = { cp: number } | { mate: number };

export interface SearchLine {
  multipv: number;
  depth: number;
  seldepth: number;
  nodes: number;
  nps: number;
  time_ms: number;
  score: Score;
  pv: Action[];
}

export interface LocalGame {
  readonly variant: string;
  /** Plays an action in any notation the variant reads (as the server's POST .../actions does);
   *  returns it as played (with its ply). Throws RulesError with the rule's sentence. */
  play(action: string): Action;
  /** The legal actions of the present position ([] when the game is over). */
  legal(): Action[];
  state(): LocalState;
  fen(): string;
  /** perft from the present position (as `ttchess perft`). */
  perft(depth: number): number;
  /** `ttchess perft --divide`: each legal action in coordinate form with its count, in the CLI's
   *  order (an addition to the contract, for web/tools/ttchess-wasm.mjs). */
  divide(depth: number): { coord: string; nodes: number }[];
  /** The engine, synchronous (call it in a Web Worker): searches the present position with these
   *  limits (neither depth nor movetime: one second), reporting each completed iteration; the
   *  engine keeps its hash between calls on the same game. */
  search(
    limits: { depth?: number; movetime?: number; multipv?: number },
    onInfo?: (info: SearchLine) => void,
  ): { best: Action | null; score: Score };
  /** A copy with the same record (for trying actions without touching this one). */
  clone(): LocalGame;
  free(): void;
}

/** The module's exports (src/wasm/wasm.c); pointers are numbers, 0 for NULL. */
interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  wasm_alloc(size: number): number;
  wasm_free(block: number): void;
  wasm_error(): number;
  wasm_variants(): number;
  wasm_fen_parts(variant: number): number;
  wasm_game_new(variant: number, options: number, fen: number): number;
  wasm_game_free(game: number): void;
  wasm_game_clone(game: number): number;
  wasm_game_play(game: number, text: number): number;
  wasm_game_legal(game: number): number;
  wasm_game_state(game: number): number;
  wasm_game_fen(game: number): number;
  wasm_game_perft(game: number, depth: number): number;
  wasm_game_divide(game: number, depth: number): number;
  wasm_game_search(game: number, depth: number, movetime: number, multipv: number): number;
}

/** WASI's errno for "not supported": what every file function answers (the library writes none). */
const ENOSYS = 52;

/** The WASI functions the module imports: a clock (the engine's time limits, perft's speed); any
 *  other refuses, which the C library reports as a failed call it never makes. */
function wasiImports(memory: () => WebAssembly.Memory): WebAssembly.ModuleImports {
  const clock = (id: number, _precision: bigint, out: number): number => {
    // Clock 0 is the wall clock, the others (1: monotonic) count from the page's start.
    const ms = id === 0 ? Date.now() : performance.now();
    new DataView(memory().buffer).setBigUint64(out, BigInt(Math.round(ms * 1e6)), true);
    return 0;
  };
  const known: WebAssembly.ModuleImports = { clock_time_get: clock };
  return new Proxy(known, { get: (t, name: string) => t[name] ?? (() => ENOSYS) });
}

class Module {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** Where the search's lines go while a search runs. */
  onReport: ((line: string) => void) | null = null;
  exports!: Exports;

  /** A copy of `s` in the module's memory, NUL-terminated; the caller frees it. */
  put(s: string): number {
    const bytes = this.encoder.encode(s);
    const p = this.exports.wasm_alloc(bytes.length + 1);
    const view = new Uint8Array(this.exports.memory.buffer, p, bytes.length + 1);
    view.set(bytes);
    view[bytes.length] = 0;
    return p;
  }

  read(p: number, length?: number): string {
    const mem = new Uint8Array(this.exports.memory.buffer);
    // indexOf, not a loop in script: a game's state is hundreds of kilobytes (van Gog's arrivals), and
    // a loop not yet compiled by the first call of a page costs tens of milliseconds of its first draw.
    const end = length === undefined ? mem.indexOf(0, p) : p + length;
    return this.decoder.decode(mem.subarray(p, end));
  }

  /** The text a call answered, its block given back; a RulesError with the library's sentence
   *  when it answered 0. */
  take(p: number): string {
    if (!p) throw new RulesError(this.read(this.exports.wasm_error()));
    const s = this.read(p);
    this.exports.wasm_free(p);
    return s;
  }

  /** Calls `f` with the strings copied into the module, freeing them after. */
  withStrings<T>(strings: string[], f: (...pointers: number[]) => T): T {
    const pointers = strings.map((s) => this.put(s));
    try {
      return f(...pointers);
    } finally {
      for (const p of pointers) this.exports.wasm_free(p);
    }
  }
}

class WasmGame implements LocalGame {
  private handle: number;

  constructor(
    private readonly m: Module,
    handle: number,
    readonly variant: string,
  ) {
    this.handle = handle;
  }

  private get h(): number {
    if (!this.handle) throw new RulesError('the game has been freed');
    return this.handle;
  }

  play(action: string): Action {
    return JSON.parse(this.m.take(this.m.withStrings([action], (t) => this.m.exports.wasm_game_play(this.h, t))));
  }

  legal(): Action[] {
    return JSON.parse(this.m.take(this.m.exports.wasm_game_legal(this.h)));
  }

  state(): LocalState {
    return JSON.parse(this.m.take(this.m.exports.wasm_game_state(this.h)));
  }

  fen(): string {
    return this.m.take(this.m.exports.wasm_game_fen(this.h));
  }

  perft(depth: number): number {
    const n = this.m.exports.wasm_game_perft(this.h, depth);
    if (n < 0) throw new RulesError('out of memory');
    return n;
  }

  divide(depth: number): { coord: string; nodes: number }[] {
    const text = this.m.take(this.m.exports.wasm_game_divide(this.h, depth));
    return text
      .split('\n')
      .filter((line) => line)
      .map((line) => {
        const at = line.lastIndexOf(': ');
        return { coord: line.slice(0, at), nodes: Number(line.slice(at + 2)) };
      });
  }

  search(
    limits: { depth?: number; movetime?: number; multipv?: number },
    onInfo?: (info: SearchLine) => void,
  ): { best: Action | null; score: Score } {
    this.m.onReport = onInfo ? (line) => onInfo(JSON.parse(line)) : null;
    try {
      const answer = this.m.exports.wasm_game_search(
        this.h,
        limits.depth ?? 0,
        limits.movetime ?? 0,
        limits.multipv ?? 1,
      );
      return JSON.parse(this.m.take(answer));
    } finally {
      this.m.onReport = null;
    }
  }

  clone(): LocalGame {
    const copy = this.m.exports.wasm_game_clone(this.h);
    if (!copy) throw new RulesError(this.m.read(this.m.exports.wasm_error()));
    return new WasmGame(this.m, copy, this.variant);
  }

  free(): void {
    if (this.handle) this.m.exports.wasm_game_free(this.handle);
    this.handle = 0;
  }
}

class WasmRules implements Rules {
  private list: VariantInfo[] | null = null;

  constructor(private readonly m: Module) {}

  variants(): VariantInfo[] {
    this.list ??= JSON.parse(this.m.take(this.m.exports.wasm_variants())) as VariantInfo[];
    return this.list.map((v) => ({ ...v }));
  }

  newGame(variant: string, options = '', fen = ''): LocalGame {
    const handle = this.m.withStrings([variant, options, fen], (v, o, f) => this.m.exports.wasm_game_new(v, o, f));
    if (!handle) throw new RulesError(this.m.read(this.m.exports.wasm_error()));
    return new WasmGame(this.m, handle, variant || 'chess');
  }

  fenParts(variant: string): FenPart[] {
    return JSON.parse(this.m.take(this.m.withStrings([variant], (v) => this.m.exports.wasm_fen_parts(v)))) as FenPart[];
  }

  checkFen(variant: string, options: string, fen: string): string | null {
    try {
      this.newGame(variant, options, fen).free();
      return null;
    } catch (e) {
      if (e instanceof RulesError) return e.message;
      throw e;
    }
  }
}

/** The module's bytes, or a response to compile as it streams in. */
type Source = string | URL | ArrayBuffer | ArrayBufferView;

/** The name of the performance measure of the module's load (fetch, compile, start), which the
 *  browser tests read and a player's developer tools show. */
export const LOAD_MEASURE = 'ttchess-rules-load';

async function instantiate(source: Source): Promise<Rules> {
  const start = performance.now();
  const m = new Module();
  const imports: WebAssembly.Imports = {
    wasi_snapshot_preview1: wasiImports(() => m.exports.memory),
    ttchess: { report: (p: number, n: number) => m.onReport?.(m.read(p, n)) },
  };
  let instance: WebAssembly.Instance;
  if (typeof source === 'string' || source instanceof URL) {
    const response = fetch(source).then((r) => {
      if (!r.ok) throw new Error(`the rules (${source}) could not be loaded: HTTP ${r.status}`);
      return r;
    });
    // Compiled as the bytes arrive, off the page's thread (the server sends `application/wasm`, which
    // streaming needs). In Chromium 156 the load took 100 to 200 ms against 170 to 320 ms for the
    // bytes whole, then compiled (tests/rules-load.spec.ts, two cores): the page's own work no longer
    // waits for the copy of 1.2 MB and the compile, nor they for it. Node 20 compiled every function
    // when streaming (0.5 to 1.4 s), so Node passes the bytes (below); a browser without streaming
    // takes them whole.
    instance = typeof WebAssembly.instantiateStreaming === 'function'
      ? (await WebAssembly.instantiateStreaming(response, imports)).instance
      : (await WebAssembly.instantiate(await (await response).arrayBuffer(), imports)).instance;
  } else {
    instance = (await WebAssembly.instantiate(source as BufferSource, imports)).instance;
  }
  m.exports = instance.exports as unknown as Exports;
  m.exports._initialize();
  performance.measure(LOAD_MEASURE, { start, end: performance.now() });
  return new WasmRules(m);
}

let loading: Promise<Rules> | null = null;

/** Loads the WebAssembly build once (memoised), from `url` (default: the build's hashed
 *  ttchess.wasm beside app.js, assets.ts), or from its bytes (Node, which cannot fetch a file). A failed load is tried again at
 *  the next call. */
export function loadRules(url: Source = assetUrl('ttchess.wasm')): Promise<Rules> {
  loading ??= instantiate(url).catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}
