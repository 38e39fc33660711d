#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `ttchess perft` and `ttchess moves` through the WebAssembly build: the same arguments, the same
// standard output byte for byte, the same error lines ("error: ...") and exit status 2, but the
// rules are web/dist/ttchess.wasm read through web/dist/rules.mjs, the wrapper the page runs
// (web/src/rules.ts bundled for Node by web/build.mjs). web/tools/wasm.test.mjs compares the two.
//
//   node web/tools/ttchess-wasm.mjs perft [--variant V] [--option N=V ...] [--fen FEN]
//                                         [--moves "..."] [--divide] DEPTH
//   node web/tools/ttchess-wasm.mjs moves [--variant V] [--option N=V ...] [--fen FEN] [--moves "..."]
//
// The argument reading is src/cli/query.c's and src/cli/common.c's, in JavaScript: the CLI's own
// code is not in the WebAssembly build (src/wasm is the library's layer, not the CLI's).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** A refusal: the CLI's "error: ..." line and exit status 2. */
class CliError extends Error {}
const fail = (message) => {
  throw new CliError(message);
};

/** --variant, --fen, --moves, --option, as NAME VALUE or NAME=VALUE (cli_position_option):
 *  true when args[i] was one (i then past its value). */
function positionOption(pos, args, at) {
  const arg = args[at.i];
  for (const name of ['--variant', '--fen', '--moves', '--option']) {
    if (!arg.startsWith(name)) continue;
    let value;
    if (arg[name.length] === '=') {
      value = arg.slice(name.length + 1);
    } else if (arg.length === name.length) {
      if (at.i + 1 >= args.length) fail(`${name} needs a value`);
      value = args[++at.i];
    } else {
      continue;
    }
    if (name === '--variant') pos.variant = value;
    else if (name === '--fen') pos.fen = value;
    else if (name === '--moves') pos.moves = value;
    else {
      if (!value.includes('=')) fail('--option needs name=value (e.g. --option forward=8)');
      pos.options += (pos.options ? ' ' : '') + value;
    }
    return true;
  }
  return false;
}

/** parse_common of src/cli/query.c: the position's options, --divide (perft), and the depth. */
function parseCommon(args, wantDepth) {
  const pos = { variant: null, fen: null, moves: null, options: '', divide: false, depth: 0 };
  let haveDepth = false;
  for (const at = { i: 1 }; at.i < args.length; at.i++) {
    const arg = args[at.i];
    if (positionOption(pos, args, at)) continue;
    if (wantDepth && arg === '--divide') {
      pos.divide = true;
      continue;
    }
    if (arg[0] === '-' && arg.length > 1 && !(wantDepth && arg[1] >= '0' && arg[1] <= '9'))
      fail(`unknown option '${arg}' (see 'ttchess ${args[0]} --help')`);
    if (!wantDepth) fail(`unexpected argument '${arg}' (see 'ttchess ${args[0]} --help')`);
    if (haveDepth) fail(`more than one depth given ('${arg}')`);
    const d = /^[0-9]+$/.test(arg) ? Number(arg) : NaN;
    if (!(d >= 1 && d <= 20)) fail(`bad depth '${arg}': give a whole number from 1 to 20`);
    pos.depth = d;
    haveDepth = true;
  }
  if (wantDepth && !haveDepth) fail("perft needs a depth (e.g. 'ttchess perft 5')");
  return pos;
}

/** A move number ("1.", "12...") at the start of a token skipped, also glued to its move. */
function skipMoveNumber(token) {
  const digits = /^[0-9]*/.exec(token)[0].length;
  if (digits === 0 || token[digits] !== '.') return token;
  return token.slice(digits).replace(/^\.*/, '');
}

/** Does the word end a Game Courier action that goes on in the next word ("P", "K e1-g1;")? */
function continues(word, next) {
  const label = word.length === 1 && 'PNBRQKpnbrqk'.includes(word);
  return next !== undefined && (label || word.endsWith(';') || next.startsWith(';'));
}

/** cli_position_game: the game of the options, with --moves played (the CLI's words on refusal). */
function positionGame(rules, pos) {
  let game;
  try {
    // The contract reads '' as the start position; the CLI reads an empty --fen as a FEN, which
    // the library refuses: a space before it (which a FEN reader skips) keeps it a FEN.
    game = rules.newGame(pos.variant ?? 'chess', pos.options, pos.fen === '' ? ' ' : pos.fen ?? '');
  } catch (e) {
    fail(e.message);
  }
  if (pos.moves === null) return game;
  const words = pos.moves.split(/[ \t\n\r,]+/).filter((w) => w);
  let index = 0;
  for (let k = 0; k < words.length; ) {
    const token = words[k++];
    const move = skipMoveNumber(token);
    if (!move) continue;
    // Game Courier's actions have spaces inside ("P e2-e4"): their words are joined again.
    let action = token;
    for (let word = move; continues(word, words[k]); word = words[k++]) action += ' ' + words[k];
    index++;
    try {
      game.play(action.slice(token.length - move.length));
    } catch (e) {
      game.free();
      fail(`move ${index} (${action}): ${e.message}`);
    }
  }
  return game;
}

function perft(rules, args, out) {
  const pos = parseCommon(args, true);
  const game = positionGame(rules, pos);
  const t0 = performance.now();
  let total = 0;
  if (pos.divide) {
    for (const { coord, nodes } of game.divide(pos.depth)) {
      out.stdout += `${coord}: ${nodes}\n`;
      total += nodes;
    }
    out.stdout += '\n';
  } else {
    total = game.perft(pos.depth);
  }
  const secs = (performance.now() - t0) / 1000;
  out.stderr += `time ${secs.toFixed(3)} s, ${(secs > 0 ? total / secs : 0).toFixed(0)} nodes/s\n`;
  out.stdout += `Nodes searched: ${total}\n`;
  game.free();
}

function moves(rules, args, out) {
  const game = positionGame(rules, parseCommon(args, false));
  for (const a of game.legal()) out.stdout += `${a.coord}\n`;
  game.free();
}

let rulesLoaded = null;

/** A built file's name in web/dist (or `dir`): the build names it after its content
 *  (ttchess.<hash>.wasm), manifest.json says which; the plain name when there is no manifest. */
export function builtName(name, dir = dist) {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))[name] ?? name;
  } catch {
    return name;
  }
}

/** The rules, loaded once: rules.mjs and ttchess.wasm of web/dist (or of `dir`). */
export async function loadWasmRules(dir = dist) {
  rulesLoaded ??= import(pathToFileURL(join(dir, 'rules.mjs')).href).then((m) =>
    m.loadRules(readFileSync(join(dir, builtName('ttchess.wasm', dir)))),
  );
  return rulesLoaded;
}

/** Runs one command (args as after `ttchess`): { stdout, stderr, status }, nothing printed. */
export async function run(args) {
  const rules = await loadWasmRules();
  const out = { stdout: '', stderr: '', status: 0 };
  const commands = { perft, moves };
  try {
    if (!commands[args[0]]) fail(`unknown command '${args[0] ?? ''}' (this tool has perft and moves)`);
    commands[args[0]](rules, args, out);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    out.stderr += `error: ${e.message}\n`;
    out.status = 2;
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await run(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.status;
}
