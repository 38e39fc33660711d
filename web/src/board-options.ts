// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's board options (orientation, scale, piece set, colours, a text diagram), remembered
// in the browser; each change is saved and handed to the page, which draws the board again.

import { h } from './dom';
import { applyOptionClasses, COLOR_SCHEMES, saveOptions, SCALE_MAX, SCALE_MIN, type RenderOptions } from './options';

/** The options box for `o`, and the text diagram it switches on and off. */
export function boardOptions(o: RenderOptions, onChange: (next: RenderOptions) => void): { box: HTMLDetailsElement; textDiagram: HTMLElement } {
  const orientation = h('select', { id: 'opt-orientation' },
    ...[['auto', 'my colour'], ['white', 'white'], ['black', 'black'], ['flip', 'flipped']].map(([v, t]) =>
      h('option', { value: v, selected: o.orientation === v }, t)));
  const scale = h('input', { id: 'opt-scale', type: 'range', min: SCALE_MIN, max: SCALE_MAX, step: 5, value: o.scale });
  const scaleOut = h('span', { class: 'scale-value' }, `${o.scale} %`);
  const pieces = h('select', { id: 'opt-pieces' },
    h('option', { value: 'cburnett', selected: o.pieces === 'cburnett' }, 'cburnett'),
    h('option', { value: 'glyphs', selected: o.pieces === 'glyphs' }, 'glyphs'));
  const colors = h('select', { id: 'opt-colors' },
    ...COLOR_SCHEMES.map(c => h('option', { value: c, selected: o.colors === c }, c)));
  const text = h('input', { id: 'opt-text', type: 'checkbox', checked: o.text });
  const textDiagram = h('pre', { id: 'text-diagram', hidden: !o.text });

  const changed = (): void => {
    const next: RenderOptions = {
      orientation: orientation.value as RenderOptions['orientation'],
      scale: Number(scale.value),
      pieces: pieces.value as RenderOptions['pieces'],
      colors: colors.value as RenderOptions['colors'],
      text: text.checked,
    };
    scaleOut.textContent = `${next.scale} %`;
    saveOptions(next);
    applyOptionClasses(document.body, next);
    textDiagram.hidden = !next.text;
    onChange(next);
  };
  for (const input of [orientation, pieces, colors, text]) input.addEventListener('change', changed);
  scale.addEventListener('input', changed);
  scale.addEventListener('change', changed);
  const box = h('details', { class: 'options card', id: 'options' },
    h('summary', {}, 'Board options'),
    h('div', { class: 'option-grid' },
      h('label', {}, 'Orientation', orientation),
      h('label', {}, 'Scale', scale, scaleOut),
      h('label', {}, 'Piece set', pieces),
      h('label', {}, 'Colours', colors),
      h('label', { class: 'check' }, text, 'Text diagram')));
  box.open = true;
  return { box, textDiagram };
}
