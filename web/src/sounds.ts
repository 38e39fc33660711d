// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's sounds, as on lichess: a move, a capture, a check, a time travel, and the player's
// own clock running low. Each is a short tone made with the Web Audio API (no sound files to load or
// to license), and nothing plays while the switch beside the board is off; the choice is remembered.
// The name of every sound played is also written on the page (body[data-last-sound], and the list
// window.ttchessSounds), so that the tests can check which sound a change made without hearing it.

import type { Action, GameState } from './api';
import { h } from './dom';

export type SoundName = 'move' | 'capture' | 'check' | 'travel' | 'low-time';

const STORAGE_KEY = 'ttchess.sound';

/** Each sound as notes: frequency (Hz), start and length (s), and the wave. */
const NOTES: Record<SoundName, { f: number; at: number; len: number; wave: OscillatorType }[]> = {
  move: [{ f: 520, at: 0, len: 0.06, wave: 'triangle' }],
  capture: [{ f: 330, at: 0, len: 0.05, wave: 'square' }, { f: 220, at: 0.05, len: 0.08, wave: 'triangle' }],
  check: [{ f: 660, at: 0, len: 0.08, wave: 'triangle' }, { f: 880, at: 0.09, len: 0.12, wave: 'triangle' }],
  // A rising sweep of three notes: a piece leaving for another time.
  travel: [{ f: 440, at: 0, len: 0.07, wave: 'sine' }, { f: 660, at: 0.07, len: 0.07, wave: 'sine' },
    { f: 990, at: 0.14, len: 0.14, wave: 'sine' }],
  'low-time': [{ f: 880, at: 0, len: 0.1, wave: 'square' }, { f: 880, at: 0.18, len: 0.1, wave: 'square' }],
};

declare global {
  interface Window {
    /** Every sound the page played, in order (read by the tests). */
    ttchessSounds?: SoundName[];
  }
}

/** The number of pieces on a board (FEN's first field). */
function pieceCount(board: string): number {
  return (board.match(/[a-z]/gi) ?? []).length;
}

/** The sound of the last action of `s`, played after `before`: a check first, then a time travel, a
 *  capture (the notation's "x", or a piece fewer on the board) or a plain move. */
export function soundOf(before: GameState, s: GameState, last: Action): SoundName {
  if (s.check) return 'check';
  const kind = s.kinds[last.kind];
  if (kind?.travel || /arriv|depart|reappear|king-back|send-forward/.test(last.kind)) return 'travel';
  if (last.human.includes('x') || pieceCount(s.board) < pieceCount(before.board)) return 'capture';
  return 'move';
}

export class Sounds {
  /** The switch: a button that says whether sound is on. */
  readonly toggle: HTMLButtonElement;
  private muted: boolean;
  private context: AudioContext | null = null;

  constructor() {
    this.muted = Sounds.stored() === 'off';
    this.toggle = h('button', { id: 'sound-toggle', type: 'button', class: 'sound-toggle' });
    this.toggle.addEventListener('click', () => this.setMuted(!this.muted));
    this.showSwitch();
  }

  private static stored(): string | null {
    try {
      return localStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  }

  private setMuted(muted: boolean): void {
    this.muted = muted;
    try {
      localStorage.setItem(STORAGE_KEY, muted ? 'off' : 'on');
    } catch {
      // Not remembering the choice is harmless.
    }
    this.showSwitch();
  }

  private showSwitch(): void {
    // A note rather than a loudspeaker emoji, which many machines' fonts lack.
    this.toggle.textContent = this.muted ? '♪ Sound off' : '♪ Sound on';
    this.toggle.setAttribute('aria-pressed', String(!this.muted));
    this.toggle.title = this.muted ? 'Turn the sounds on' : 'Turn the sounds off';
  }

  /** The sound of what changed between two states of the page: an action played (one sound, even
   *  when several came at once); nothing for the first state or a take-back. */
  follow(before: GameState | null, s: GameState): void {
    if (!before || s.actions.length <= before.actions.length || s.id !== before.id) return;
    this.play(soundOf(before, s, s.actions[s.actions.length - 1]));
  }

  play(name: SoundName): void {
    document.body.dataset.lastSound = name;
    (window.ttchessSounds ??= []).push(name);
    if (this.muted) return;
    try {
      this.context ??= new AudioContext();
      const ctx = this.context;
      // A page not yet touched by the player may not play sound: the browser keeps the context
      // suspended, and the sound is silently lost.
      if (ctx.state === 'suspended') void ctx.resume();
      const now = ctx.currentTime;
      for (const n of NOTES[name]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = n.wave;
        osc.frequency.value = n.f;
        gain.gain.setValueAtTime(0.0001, now + n.at);
        gain.gain.exponentialRampToValueAtTime(0.15, now + n.at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + n.at + n.len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + n.at);
        osc.stop(now + n.at + n.len + 0.02);
      }
    } catch {
      // No audio on this machine: the game goes on in silence.
    }
  }

  destroy(): void {
    void this.context?.close();
    this.context = null;
  }
}
