// SPDX-License-Identifier: GPL-3.0-or-later
//
// Small DOM helpers. Text always goes in through textContent, never innerHTML, so that names, kibitz
// and anything else from the server or other players can never become markup.

type Attrs = Record<string, string | number | boolean | null | undefined>;

/** Creates an element with attributes (`class`, `id`, data-*, ...; false/null/undefined omit one) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

/** The element with an id, which the page is known to contain. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no element #${id}`);
  return el as T;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: (Node | string | null | undefined | false)[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

/** Moves to another page of the app without reloading it (main.ts listens for the event). */
export function navigate(url: string): void {
  history.pushState(null, '', url);
  window.dispatchEvent(new Event('ttchess:navigate'));
}

/** A link inside the app: a plain href (so that it can be opened in a new tab) that navigates in place. */
export function appLink(href: string, attrs: Attrs, ...children: (Node | string)[]): HTMLAnchorElement {
  const a = h('a', { ...attrs, href }, ...children);
  a.addEventListener('click', e => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  });
  return a;
}
