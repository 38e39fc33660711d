// SPDX-License-Identifier: GPL-3.0-or-later
//
// The same rules everywhere (issue 26): the WebAssembly build, read through rules.ts as the page
// reads it (web/tools/ttchess-wasm.mjs), against the native CLI, for every variant it lists:
//   - perft from the start, from every position of tests/data/perft-standard.txt and from the end
//     of every game of tests/data/*-games.txt of the variant (chess to depth 3, the time-travel
//     variants to depth 2): standard output byte for byte, the exit status, and the error line when
//     the variant refuses a position;
//   - the legal actions (`moves`) of 100 random positions of each variant, reached by random
//     actions from a fixed seed chosen through the WebAssembly side;
//   - the module and its glue at most 400 KB gzip-compressed, loaded (fetched and instantiated)
//     from `ttchess serve` in under 300 ms.
// Each part fails when it compared fewer cases than it asked for, so that a broken scan cannot pass.
//
// Run by `make test-wasm`: TTCHESS=path/to/ttchess node --test web/tools/wasm.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { run, loadWasmRules, builtName } from './ttchess-wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'web', 'dist');
const TTCHESS = process.env.TTCHESS;
if (!TTCHESS) throw new Error('wasm.test.mjs: set TTCHESS to the native ttchess binary');

const RANDOM_POSITIONS = 100;
const MAX_RANDOM_PLIES = 60;
const SIZE_LIMIT = 400 * 1024;

function native(args) {
  return new Promise((resolve) => {
    execFile(TTCHESS, args, { maxBuffer: 1 << 28 }, (error, stdout, stderr) => {
      resolve({ stdout, stderr, status: error ? error.code : 0 });
    });
  });
}

/** Runs `job` over `items`, two at a time (the native side is a process each). */
async function eachInPairs(items, job) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await job(items[next++]);
  };
  await Promise.all([worker(), worker()]);
}

/** The same command through both: stdout and status equal, and the error line when it failed. */
async function compare(args) {
  const [want, got] = await Promise.all([native(args), run(args)]);
  const what = `ttchess ${args.map((a) => (/[ ;]/.test(a) ? `"${a}"` : a)).join(' ')}`;
  assert.equal(got.status, want.status, `${what}: exit status (${got.stderr.trim()} / ${want.stderr.trim()})`);
  assert.equal(got.stdout, want.stdout, `${what}: standard output`);
  if (want.status !== 0) assert.equal(got.stderr, want.stderr, `${what}: the error line`);
  return want.status === 0;
}

async function variantNames() {
  const { stdout } = await native(['variants']);
  return stdout.split('\n').filter((l) => /^\S/.test(l)).map((l) => l.split(/\s/)[0]);
}

function suiteFens() {
  return readFileSync(join(root, 'tests', 'data', 'perft-standard.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split(';')[0].trim());
}

/** The games of tests/data/*-games.txt: "VARIANT: coordinate actions", by variant. */
function dataGames() {
  const games = {};
  const dir = join(root, 'tests', 'data');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('-games.txt'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /^([a-z-]+):\s*(.*)$/.exec(line.trim());
      if (m) (games[m[1]] ??= []).push(m[2]);
    }
  }
  return games;
}

test('perft: the WebAssembly build counts as the native CLI', async () => {
  const variants = await variantNames();
  assert.ok(variants.length >= 8, `ttchess variants listed ${variants.length} variants`);
  const fens = suiteFens();
  assert.ok(fens.length >= 6, `perft-standard.txt gave ${fens.length} positions`);
  const games = dataGames();
  const cases = [];
  for (const v of variants) {
    const depth = v === 'chess' ? '3' : '2';
    cases.push(['perft', '--variant', v, depth]);
    for (const fen of fens) cases.push(['perft', '--variant', v, '--fen', fen, depth]);
    for (const moves of games[v] ?? []) cases.push(['perft', '--variant', v, '--moves', moves, depth]);
  }
  // --divide and options too, once each.
  cases.push(['perft', '--divide', '3'], ['perft', '--variant', 'gifford', '--option', 'back=2', '--divide', '2']);
  let compared = 0, counted = 0;
  await eachInPairs(cases, async (args) => {
    if (await compare(args)) counted++;
    compared++;
  });
  const asked = variants.length * (1 + fens.length) + Object.values(games).flat().length + 2;
  assert.equal(compared, asked, `compared ${compared} perft cases of ${asked}`);
  assert.ok(counted >= variants.length * 2, `only ${counted} cases counted nodes (the others refused)`);
  console.log(`# perft: ${compared} cases compared (${counted} counted, the others refused alike)`);
});

/** mulberry32: a small seeded generator, so that the positions are the same at every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random games of a variant from a fixed seed, played through the WebAssembly side: `count`
 *  positions, ten from each game (prefixes of random lengths), each as its actions. The actions
 *  are picked among divide(1)'s, the coordinate forms alone (the human forms are legal()'s cost,
 *  which the comparison pays once a position). */
function randomPositions(rules, variant, next, count) {
  const positions = [];
  while (positions.length < count) {
    const game = rules.newGame(variant);
    const played = [];
    for (let p = 0; p < MAX_RANDOM_PLIES; p++) {
      const legal = game.divide(1);
      if (!legal.length) break;
      played.push(game.play(legal[Math.floor(next() * legal.length)].coord).coord);
    }
    game.free();
    for (let k = 0; k < 10 && positions.length < count; k++)
      positions.push(played.slice(0, Math.floor(next() * (played.length + 1))).join(' '));
  }
  return positions;
}

test('moves: the legal actions of random positions are the native CLI\'s', async () => {
  const rules = await loadWasmRules();
  const variants = await variantNames();
  const next = random(2026);
  const cases = [];
  for (const v of variants)
    for (const moves of randomPositions(rules, v, next, RANDOM_POSITIONS)) cases.push(['moves', '--variant', v, '--moves', moves]);
  let compared = 0, some = 0;
  await eachInPairs(cases, async (args) => {
    assert.ok(await compare(args), `ttchess ${args.join(' ')} refused its own actions`);
    compared++;
    if (args[4].length) some++;
  });
  const asked = variants.length * RANDOM_POSITIONS;
  assert.equal(compared, asked, `compared ${compared} random positions of ${asked}`);
  assert.ok(some > asked / 2, `only ${some} of the positions were past the start`);
  console.log(`# moves: ${compared} random positions compared (${variants.length} variants)`);
});

test('size: the module and its glue weigh at most 400 KB gzip-compressed', () => {
  const files = [builtName('ttchess.wasm'), 'rules.mjs'];
  const sizes = files.map((f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  console.log(`# size: ${files.map((f, i) => `${f} ${(sizes[i] / 1024).toFixed(1)} KB`).join(', ')} gzip`);
  assert.ok(total <= SIZE_LIMIT, `${(total / 1024).toFixed(1)} KB gzip-compressed, over ${SIZE_LIMIT / 1024} KB`);
});

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// The load time's limit (300 ms) is checked where players load it, in Chromium
// (web/tests/rules-load.spec.ts): Node's own fetch takes 10 to 170 ms on loopback before the first
// header where curl and the browser take 5, which would measure Node rather than the module. Here:
// the module is served with its type and loads in a fresh Node, whose times are printed.
test('load: fetched and instantiated from ttchess serve', async () => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ttchess-wasm-'));
  const server = spawn(TTCHESS, ['serve', '--port', String(port), '--db', join(dir, 'db'), '--static', dist], {
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        await fetch(`${base}/api/variants`);
        break;
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const wasmUrl = `${base}/${builtName('ttchess.wasm')}`;
    const head = await fetch(wasmUrl);
    assert.equal(head.headers.get('content-type'), 'application/wasm');
    await head.arrayBuffer();
    // Each load in a fresh Node (V8 keeps a module it compiled: a second load in one process
    // would compile nothing), after a first request (Node's fetch loads itself at its first
    // use, which a page has no need of); the median of three.
    const script = `const { loadRules } = await import(${JSON.stringify(pathToFileURL(join(dist, 'rules.mjs')).href)});
      await (await fetch('${base}/api/variants')).text();
      const t0 = performance.now();
      const rules = await loadRules('${wasmUrl}');
      const ms = performance.now() - t0;
      if (rules.variants().length < 8) throw new Error('no variants');
      console.log(ms);`;
    const times = [];
    for (let i = 0; i < 3; i++) {
      const out = await new Promise((resolve, reject) =>
        execFile(process.execPath, ['--input-type=module', '-e', script], (e, stdout) => (e ? reject(e) : resolve(stdout))),
      );
      times.push(Number(out));
    }
    const median = times.sort((a, b) => a - b)[1];
    console.log(`# load: ${times.map((t) => t.toFixed(1)).join(', ')} ms (fetch + instantiate, each in a fresh Node)`);
    assert.ok(Number.isFinite(median), 'the module did not load');
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
