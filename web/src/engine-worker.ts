// SPDX-License-Identifier: GPL-3.0-or-later
//
// The analysis engine in a Web Worker (bundled by build.mjs as engine-worker.js): the library's own
// engine from the WebAssembly build, through rules.ts, searching depth 1, 2, 3... of the position it
// was last given. A search call is synchronous, so the worker yields to its message queue between two
// depths: that is where it learns that the position changed or that the analysis was stopped. The
// engine keeps its hash between the calls on the same game, so each depth starts from the last one's.
//
// Messages in:  {type: 'analyse', id, variant, options, fen, moves, multipv} and {type: 'stop', id}.
// Messages out: {type: 'ready'}, {type: 'info', id, line}, {type: 'done', id, reason},
//               {type: 'error', id, message}, each with the id of the analysis it belongs to.

import { loadRules, RulesError, type LocalGame, type Rules, type SearchLine } from './rules';
import type { EngineReply, EngineRequest } from './analysis-engine';

/** The deepest iteration asked for; a position that deep is long settled or hopelessly slow. */
const MAX_DEPTH = 64;

const scope = self as unknown as {
  postMessage(message: EngineReply): void;
  onmessage: ((ev: MessageEvent<EngineRequest>) => void) | null;
};

let rules: Rules | null = null;
/** The analysis asked for last; a search whose id is not this one's stops at its next yield. */
let wanted: Extract<EngineRequest, { type: 'analyse' }> | null = null;
let running = false;

/** Lets the messages that arrived during the last search be handled before the next one. */
function yieldToMessages(): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, 0));
}

function sentence(e: unknown): string {
  return e instanceof RulesError || e instanceof Error ? e.message : String(e);
}

/** The game of a request: its start (or FEN) and its moves, played one by one as the page did. */
function gameOf(r: Rules, req: Extract<EngineRequest, { type: 'analyse' }>): LocalGame {
  const game = r.newGame(req.variant, req.options, req.fen);
  try {
    for (const m of req.moves) game.play(m);
  } catch (e) {
    game.free();
    throw e;
  }
  return game;
}

/** Searches the wanted position deeper and deeper until it changes, is stopped, or is done. */
async function analyse(req: Extract<EngineRequest, { type: 'analyse' }>): Promise<void> {
  let game: LocalGame;
  try {
    rules ??= await loadRules();
    game = gameOf(rules, req);
  } catch (e) {
    scope.postMessage({ type: 'error', id: req.id, message: sentence(e) });
    return;
  }
  try {
    if (game.legal().length === 0) {
      scope.postMessage({ type: 'done', id: req.id, reason: 'over' });
      return;
    }
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      const lines: SearchLine[] = [];
      game.search({ depth, multipv: req.multipv }, line => {
        if (line.depth === depth) lines.push(line);
      });
      for (const line of lines) scope.postMessage({ type: 'info', id: req.id, line });
      await yieldToMessages();
      if (wanted !== req) {
        scope.postMessage({ type: 'done', id: req.id, reason: 'stopped' });
        return;
      }
    }
    scope.postMessage({ type: 'done', id: req.id, reason: 'depth' });
  } catch (e) {
    scope.postMessage({ type: 'error', id: req.id, message: sentence(e) });
  } finally {
    game.free();
  }
}

/** Runs the wanted analyses one after the other: a new request waits for the running one's yield. */
async function run(): Promise<void> {
  if (running) return;
  running = true;
  try {
    while (wanted) {
      const req = wanted;
      await analyse(req);
      if (wanted === req) wanted = null;
    }
  } finally {
    running = false;
  }
}

scope.onmessage = ev => {
  const msg = ev.data;
  if (msg.type === 'analyse') {
    wanted = msg;
    void run();
  } else if (msg.type === 'stop') {
    wanted = null;
  }
};

// The WebAssembly build is loaded at once, so that the first position does not wait for it; a failure
// is reported by the first analysis, which tries again.
void loadRules().then(r => {
  rules = r;
  scope.postMessage({ type: 'ready' });
}, () => undefined);
