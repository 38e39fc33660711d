// SPDX-License-Identifier: GPL-3.0-or-later
//
// The page's colour theme: light, dark, or the system's (prefers-color-scheme), chosen with a small
// switch in the header and remembered in localStorage. style.css holds the colours of both themes as
// custom properties; this module only says which one applies, by the attribute data-theme on <html>
// ("light" or "dark"; absent, the stylesheet follows the system).

import { h } from './dom';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'ttchess.theme';
const CHOICES: [ThemeChoice, string][] = [['system', 'system theme'], ['light', 'light theme'], ['dark', 'dark theme']];

/** The remembered choice; "system" when none was made or storage is not available. */
export function themeChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // Storage switched off: the system's theme.
  }
  return 'system';
}

/** Shows the page in the chosen theme. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
}

function saveTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Not remembering the choice is harmless: this page still shows it.
  }
}

/**
 * Applies the remembered theme and puts the switch (#theme-switch) into the header's #theme-box, which
 * index.html holds apart from what the router fills, so that it stays across pages.
 */
export function installThemeSwitch(): void {
  const choice = themeChoice();
  applyTheme(choice);
  const box = document.getElementById('theme-box');
  if (!box || box.querySelector('#theme-switch')) return;
  const select = h('select', { id: 'theme-switch', 'aria-label': 'Colour theme', title: 'Colour theme' },
    ...CHOICES.map(([value, text]) => h('option', { value, selected: value === choice }, text)));
  select.addEventListener('change', () => {
    const chosen = select.value as ThemeChoice;
    saveTheme(chosen);
    applyTheme(chosen);
  });
  box.append(select);
}

// The theme applies as soon as the script runs, before the router draws the first page, so that a
// page chosen dark does not flash light for long.
applyTheme(themeChoice());
