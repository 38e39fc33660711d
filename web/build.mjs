// SPDX-License-Identifier: GPL-3.0-or-later
//
// Builds the browser client of `ttchess serve` into web/dist: the TypeScript bundled and minified by
// esbuild into app.js, and one stylesheet app.css made of chessgroundx's board CSS, its cburnett
// pieces (renamed to chessgroundx's role classes, see piecesCss below), our own style.css and the
// parts' stylesheets in src/css/.
// Run with `npm run build`; `ttchess serve --static web/dist` serves the result.
//
// The files the browser loads are named after a hash of their content (app.3f9a0c12de.js, ...,
// ttchess.<hash>.wasm, copied from TTCHESS_WASM, which the Makefile sets), so that the server can
// let a browser keep each for a year without asking (src/server/http.c: Cache-Control immutable),
// and a new build is new names. index.html, which is asked for every time, names them; the page
// finds the module and the worker's names in its <meta name="ttchess-assets"> (src/assets.ts).
// manifest.json maps each plain name to its hashed one, for web/tools and the tests.

import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const cgAssets = join(here, 'node_modules', 'chessgroundx', 'assets');

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await esbuild.build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'iife',
  target: ['es2020'],
  outfile: join(dist, 'app.js'),
  logLevel: 'warning',
});

// The rules (rules.ts over the WebAssembly build) as an ES module for Node, for web/tools/: the
// same wrapper the page runs, so that the tools' answers are the page's. The module itself
// (ttchess.wasm) is copied into dist by `make web` after this build, which empties the folder.
await esbuild.build({
  entryPoints: [join(here, 'src', 'rules.ts')],
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  outfile: join(dist, 'rules.mjs'),
  logLevel: 'warning',
});

// The analysis engine's Web Worker (analysis-engine.ts starts it): its own file, since a worker is
// loaded from a URL, with the same rules.ts and WebAssembly build as the page.
await esbuild.build({
  entryPoints: [join(here, 'src', 'engine-worker.ts')],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'iife',
  target: ['es2020'],
  outfile: join(dist, 'engine-worker.js'),
  logLevel: 'warning',
});

// chessgroundx names its roles `p-piece`, `n-piece`, ... while the cburnett stylesheet it ships
// still uses chessground's `pawn`, `knight`, ...; rename them, and scope the set under the class
// `pieces-cburnett` so that the page can switch piece sets by switching one class.
function piecesCss() {
  const roles = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
  let css = readFileSync(join(cgAssets, 'chessground.cburnett.css'), 'utf8');
  css = css.replace(/\.cg-wrap piece\.(pawn|knight|bishop|rook|queen|king)\.(white|black)/g,
    (_, role, color) => `.pieces-cburnett piece.${roles[role]}-piece.${color}`);
  if (!css.includes('.pieces-cburnett piece.k-piece.white'))
    throw new Error('build.mjs: the cburnett stylesheet of chessgroundx has changed its selectors');
  return css;
}

function partsCss() {
  const folder = join(here, 'src', 'css');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.css')).sort()
    .flatMap((f) => [`/* ttchess: ${f} */`, readFileSync(join(folder, f), 'utf8')]);
}

const css = [
  '/* chessgroundx (GPL-3.0-or-later): chessground.base.css */',
  readFileSync(join(cgAssets, 'chessground.base.css'), 'utf8'),
  '/* chessgroundx: chessground.brown.css */',
  readFileSync(join(cgAssets, 'chessground.brown.css'), 'utf8'),
  '/* chessgroundx: chessground.cburnett.css, role classes renamed */',
  piecesCss(),
  '/* ttchess */',
  readFileSync(join(here, 'src', 'style.css'), 'utf8'),
  // Each part of the page may keep its own rules in src/css/<part>.css, after the common ones.
  ...partsCss(),
].join('\n');
writeFileSync(join(dist, 'app.css'), css);

// The WebAssembly build of the library, when the Makefile names it (TTCHESS_WASM); a build without
// it still makes the page, which then says that its rules cannot be loaded.
const wasm = process.env.TTCHESS_WASM;
if (wasm && existsSync(wasm)) copyFileSync(wasm, join(dist, 'ttchess.wasm'));
else console.warn(`build.mjs: no WebAssembly build (TTCHESS_WASM=${wasm ?? ''}): run make web`);

// Each file under its content's name: ten hex digits of its SHA-256, and its source map beside it,
// which the script names at its end.
function hashed(name) {
  const path = join(dist, name);
  if (!existsSync(path)) return null;
  const hash = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 10);
  const dot = name.lastIndexOf('.');
  const to = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
  renameSync(path, join(dist, to));
  if (existsSync(`${path}.map`)) {
    renameSync(`${path}.map`, join(dist, `${to}.map`));
    const text = readFileSync(join(dist, to), 'utf8');
    writeFileSync(join(dist, to), text.replace(`sourceMappingURL=${name}.map`, `sourceMappingURL=${to}.map`));
  }
  return to;
}
const manifest = {};
for (const name of ['app.js', 'app.css', 'engine-worker.js', 'ttchess.wasm']) {
  const to = hashed(name);
  if (to) manifest[name] = to;
}
writeFileSync(join(dist, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// index.html names the hashed files; the page's own loads (assets.ts) read the meta tag.
let html = readFileSync(join(here, 'index.html'), 'utf8');
for (const name of ['app.css', 'app.js']) {
  if (!html.includes(`"/${name}"`)) throw new Error(`build.mjs: index.html does not load /${name}`);
  html = html.replace(`"/${name}"`, `"/${manifest[name]}"`);
}
const assets = {};
for (const name of ['ttchess.wasm', 'engine-worker.js']) if (manifest[name]) assets[name] = `/${manifest[name]}`;
// The rules' module is asked for early (preload), while app.js still loads: a game page needs
// both before its board is usable.
const preload = manifest['ttchess.wasm']
  ? `\n  <link rel="preload" href="/${manifest['ttchess.wasm']}" as="fetch" type="application/wasm" crossorigin="anonymous">`
  : '';
html = html.replace('</title>', `</title>\n  <meta name="ttchess-assets" content='${JSON.stringify(assets)}'>${preload}`);
writeFileSync(join(dist, 'index.html'), html);

// The games' rules (docs/rules/*.md), which the rules pages (src/rules-page.ts) fetch and render.
const rulesDocs = join(here, '..', 'docs', 'rules');
mkdirSync(join(dist, 'rules'), { recursive: true });
for (const f of readdirSync(rulesDocs).filter((f) => f.endsWith('.md'))) copyFileSync(join(rulesDocs, f), join(dist, 'rules', f));

// A gzip-compressed copy beside each large file, which the server sends to a browser that accepts
// it (src/server/http.c, send_file): ttchess.wasm is a seventh of its size compressed.
for (const name of Object.values(manifest)) {
  writeFileSync(join(dist, `${name}.gz`), gzipSync(readFileSync(join(dist, name)), { level: 9 }));
}
console.log(`web/dist: index.html ${Object.values(manifest).join(' ')} rules.mjs manifest.json, and their .gz`);
