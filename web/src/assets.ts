// SPDX-License-Identifier: GPL-3.0-or-later
//
// The addresses of the built files that the page loads by itself (the WebAssembly rules, the
// analysis engine's worker). web/build.mjs names each file after a hash of its content
// (ttchess.3f9a0c12de.wasm), so that the server may let the browser keep it for a year (src/server/
// http.c): the page learns the names from index.html's <meta name="ttchess-assets">, the worker from
// its own address (?wasm=...). Without either (Node, web/tools; a page built before the hashes),
// the plain names.

export type Asset = 'ttchess.wasm' | 'engine-worker.js';

let known: Partial<Record<Asset, string>> | null = null;

function readNames(): Partial<Record<Asset, string>> {
  const names: Partial<Record<Asset, string>> = {};
  try {
    if (typeof document !== 'undefined') {
      const meta = document.querySelector('meta[name="ttchess-assets"]');
      Object.assign(names, JSON.parse(meta?.getAttribute('content') ?? '{}') as Partial<Record<Asset, string>>);
    } else if (typeof location !== 'undefined') {
      const wasm = new URLSearchParams(location.search).get('wasm');
      if (wasm) names['ttchess.wasm'] = wasm;
    }
  } catch {
    // A damaged tag: the plain names still load, uncached.
  }
  return names;
}

/** The address of a built file: its hashed name where the build gave one, else '/NAME'. */
export function assetUrl(name: Asset): string {
  known ??= readNames();
  const hashed = known[name];
  return hashed && /^\/[\w.-]+$/.test(hashed) ? hashed : `/${name}`;
}

/** The worker's address, which tells the worker where the rules are. */
export function workerUrl(): string {
  return `${assetUrl('engine-worker.js')}?wasm=${encodeURIComponent(assetUrl('ttchess.wasm'))}`;
}
