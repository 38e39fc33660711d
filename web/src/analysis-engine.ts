// SPDX-License-Identifier: GPL-3.0-or-later
//
// The analysis board's side of the engine worker (engine-worker.ts): starts it, gives it a position
// (a game's start and its moves), stops it, and hands the page each completed line. Every analysis is
// numbered, so a line of a position the page has left is never shown. The worker reads a new position
// only between two depths; one depth of a hard position can take long, so a worker that has not let
// go within STOP_GRACE_MS is ended and a fresh one started.

import type { SearchLine } from './rules';
import { workerUrl } from './assets';

export type EngineRequest =
  | { type: 'analyse'; id: number; variant: string; options: string; fen: string; moves: string[]; multipv: number }
  | { type: 'stop'; id: number };

export type EngineReply =
  | { type: 'ready' }
  | { type: 'info'; id: number; line: SearchLine }
  | { type: 'done'; id: number; reason: 'over' | 'stopped' | 'depth' }
  | { type: 'error'; id: number; message: string };

export interface Position {
  variant: string;
  options: string;
  fen: string;
  moves: string[];
}

export interface EngineListener {
  /** A completed iteration's line (one per multipv) of the position last given. */
  line(line: SearchLine): void;
  /** The analysis ended by itself: the game is over there, or the deepest depth was reached. */
  done(reason: 'over' | 'depth'): void;
  /** The library refused the position, or the WebAssembly build could not be loaded. */
  error(message: string): void;
}

const STOP_GRACE_MS = 800;
// The worker's hashed name, and the rules' for it (assets.ts).
const WORKER_URL = workerUrl();

export class AnalysisEngine {
  private worker: Worker | null = null;
  private serial = 0;
  /** The position asked for last (null when stopped), kept to give it to a new worker. */
  private position: Position | null = null;
  /** The analysis the worker runs or will run next, until it says it is done. */
  private running: number | null = null;
  /** An analysis the worker must let go of, and the timer that replaces the worker if it does not. */
  private releasing: number | null = null;
  private killTimer = 0;

  constructor(private readonly listener: EngineListener, private readonly multipv = 3) {}

  /** Analyses a position (null: stops), dropping whatever was being analysed. */
  analyse(position: Position | null): void {
    this.position = position;
    const previous = this.running;
    this.send();
    if (previous !== null && this.releasing === null) this.awaitRelease(previous);
  }

  /** Whether an analysis is running. */
  get busy(): boolean {
    return this.running !== null;
  }

  destroy(): void {
    window.clearTimeout(this.killTimer);
    this.worker?.terminate();
    this.worker = null;
    this.running = this.releasing = null;
  }

  private send(): void {
    const id = ++this.serial;
    if (this.position) {
      this.ensureWorker().postMessage({ type: 'analyse', id, ...this.position, multipv: this.multipv } satisfies EngineRequest);
      this.running = id;
    } else {
      this.worker?.postMessage({ type: 'stop', id } satisfies EngineRequest);
      this.running = null;
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_URL);
    w.onmessage = (ev: MessageEvent<EngineReply>) => this.receive(ev.data);
    w.onerror = ev => {
      ev.preventDefault();
      this.listener.error(`The engine could not start: ${ev.message || 'its worker failed to load'}.`);
    };
    this.worker = w;
    return w;
  }

  /** A search still running must let go at its next depth; if that takes too long, the worker is
   *  ended and the newest request given to a new one (which loads the WebAssembly again). */
  private awaitRelease(id: number): void {
    this.releasing = id;
    this.killTimer = window.setTimeout(() => {
      this.killTimer = 0;
      if (this.releasing !== id) return;
      this.worker?.terminate();
      this.worker = null;
      this.running = this.releasing = null;
      if (this.position) this.send();
    }, STOP_GRACE_MS);
  }

  private receive(msg: EngineReply): void {
    if (msg.type === 'ready') return;
    if (msg.type === 'done' || msg.type === 'error') {
      if (msg.id === this.releasing) {
        window.clearTimeout(this.killTimer);
        this.killTimer = 0;
        this.releasing = null;
      }
      if (msg.id === this.running) this.running = null;
    }
    // Only the newest analysis speaks to the page.
    if (msg.id !== this.serial) return;
    if (msg.type === 'info') this.listener.line(msg.line);
    else if (msg.type === 'done' && msg.reason !== 'stopped') this.listener.done(msg.reason);
    else if (msg.type === 'error') this.listener.error(msg.message);
  }
}
