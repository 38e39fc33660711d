// SPDX-License-Identifier: GPL-3.0-or-later
//
// The clocks of the game page, beside the board as on lichess: each player's clock on their side of
// it (the player at the bottom has the bottom clock; turning the board swaps them), the running one
// highlighted, and a low-time warning: red, with one sound for the player's own clock, once its time
// is under 20 s or a tenth of the starting time, whichever is less. A correspondence game shows the
// deadline of the side to move. The times are the server's, from the state or the event that brought
// them, counted down from the moment the page received them.

import type { Color, GameState } from './api';
import { fill, h } from './dom';

/** A live clock's time, as "4:59", "1:02:03" or, under ten seconds, "0:09.4". */
export function formatMs(ms: number): string {
  const t = Math.max(0, ms);
  const total = Math.floor(t / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours ? 2 : 1, '0')}:${String(seconds).padStart(2, '0')}`;
  if (hours) return `${hours}:${mmss}`;
  if (t < 10000) return `${mmss}.${Math.floor((t % 1000) / 100)}`;
  return mmss;
}

/**
 * A deadline in the player's own date format, or null until the browser's date formats are loaded.
 * The first date a page writes in the browser's locale loads the locale's data (40 to 140 ms on two
 * cores, measured in chromium), so the game page's first draw gives only the time left, and the date
 * follows in a tick of the clocks once the browser is idle, after the page has been drawn.
 */
let localeLoaded = false;
let localeQueued = false;
function deadlineDate(ms: number): string | null {
  if (localeLoaded) return new Date(ms).toLocaleString();
  if (!localeQueued) {
    localeQueued = true;
    const load = (): void => {
      new Date(0).toLocaleString();
      localeLoaded = true;
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
    else setTimeout(load, 500);
  }
  return null;
}

/** The time left to a correspondence deadline, in words. */
export function formatLeft(ms: number): string {
  if (ms <= 0) return 'passed';
  const hours = Math.floor(ms / 3600000);
  const days = Math.floor(hours / 24);
  if (days) return `${days} d ${hours % 24} h left`;
  const minutes = Math.floor((ms % 3600000) / 60000);
  return `${hours} h ${minutes} min left`;
}

/** Under this much time a live clock warns: 20 s, or a tenth of the starting time when less. */
export function lowTimeMs(baseMs: number): number {
  return Math.min(20000, baseMs / 10);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export class Clocks {
  /** Where the clocks go: above the board and below it. */
  readonly top = h('div', { class: 'clock-slot clock-top' });
  readonly bottom = h('div', { class: 'clock-slot clock-bottom' });
  private readonly el: Record<Color, HTMLElement> = {
    white: h('div', { id: 'clock-white', class: 'clock' }),
    black: h('div', { id: 'clock-black', class: 'clock' }),
  };
  private state: GameState | null = null;
  /** When (performance.now()) the running side's time in the state's clock was what it reads. */
  private since = 0;
  /** The sides whose low time has sounded, so that it sounds once a game. */
  private readonly warned = new Set<Color>();
  private readonly timer: number;
  /** A wake-up at the moment the player's own running clock crosses into low time. */
  private lowTimer = 0;

  /** `onLowTime` is called once when the player's own clock runs low. */
  constructor(private readonly onLowTime: () => void) {
    this.timer = window.setInterval(() => this.render(), 200);
  }

  /** A new state, its clocks read at `since` (performance.now()), the board seen from `bottom`. */
  update(s: GameState, bottom: Color, since: number): void {
    this.state = s;
    this.since = since;
    const other: Color = bottom === 'white' ? 'black' : 'white';
    if (this.bottom.firstChild !== this.el[bottom]) fill(this.bottom, this.el[bottom]);
    if (this.top.firstChild !== this.el[other]) fill(this.top, this.el[other]);
    this.render();
    this.wakeAtLowTime(s, since);
  }

  /**
   * The warning is given at the moment the player's clock crosses into low time, not at the next tick
   * of the 200 ms display: with a short clock the low time lasts 0.3 s, and a page busy for a tick or
   * two missed it (the low clock's browser test, on a loaded machine).
   */
  private wakeAtLowTime(s: GameState, since: number): void {
    window.clearTimeout(this.lowTimer);
    const clock = s.clock;
    const you = s.you;
    if (clock?.kind !== 'live' || !you || clock.running !== you || s.status !== 'active' || this.warned.has(you)) return;
    const ms = (you === 'white' ? clock.white_ms : clock.black_ms) - lowTimeMs(clock.base_ms);
    const wait = ms - (performance.now() - since);
    if (wait > 0) this.lowTimer = window.setTimeout(() => this.render(), wait + 1);
  }

  private render(): void {
    const s = this.state;
    if (!s) return;
    const clock = s.clock;
    for (const c of ['white', 'black'] as Color[]) {
      const el = this.el[c];
      let text = '';
      let running = false;
      let low = false;
      if (clock?.kind === 'live') {
        let ms = c === 'white' ? clock.white_ms : clock.black_ms;
        running = clock.running === c && s.status === 'active';
        if (running) ms -= performance.now() - this.since;
        text = formatMs(ms);
        low = s.status === 'active' && ms < lowTimeMs(clock.base_ms);
        if (low && running && c === s.you && !this.warned.has(c)) {
          this.warned.add(c);
          this.onLowTime();
        }
      } else if (clock?.kind === 'correspondence') {
        // The deadline is 0 (or null) until the first action starts the clock.
        running = s.status === 'active' && s.to_move === c && !!clock.deadline;
        const per = `${clock.days_per_move} day${clock.days_per_move === 1 ? '' : 's'} a move`;
        const date = running && clock.deadline ? deadlineDate(clock.deadline) : null;
        text = running && clock.deadline
          ? date ? `moves by ${date} (${formatLeft(clock.deadline - Date.now())})` : formatLeft(clock.deadline - Date.now())
          : s.status === 'active' && s.to_move === c ? `${per}; the clock starts with the first action` : per;
      }
      el.hidden = !clock;
      const label = `${capital(c)}: `;
      if (el.textContent !== label + text) fill(el, h('span', { class: 'clock-side' }, label), h('span', { class: 'clock-time' }, text));
      el.classList.toggle('running', running);
      el.classList.toggle('low', low);
      el.classList.toggle('correspondence', clock?.kind === 'correspondence');
    }
  }

  destroy(): void {
    window.clearInterval(this.timer);
    window.clearTimeout(this.lowTimer);
  }
}
