// Building the page: the `h` element helper and the few small things every
// page uses (the app's root element, an error notice, a date).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    // Through the CSSOM: the server's Content-Security-Policy refuses
    // inline style attributes.
    else if (k === 'style') el.style.cssText = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const app = () => document.getElementById('app');

// Say something to screen readers through the page's one live region
// (#announce, outside what pages redraw, so it is never replaced). The
// region is emptied first, so that the same words said twice are heard
// twice.
let announceTimer = null;
export function announce(text) {
  const region = document.getElementById('announce');
  if (!region) return;
  region.textContent = '';
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { region.textContent = text; }, 60);
}

// The page's title: what the page shows, then the app's name.
export function setTitle(what) {
  document.title = what ? `${what} — Nimatron` : 'Nimatron';
}

// Whether the screen is touched (no pointer that hovers): a phone or a tablet.
export const touchScreen = () => window.matchMedia('(hover: none) and (pointer: coarse)').matches;

// Whether the player asked for less motion.
export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function showError(where, err) {
  const box = h('div', { class: 'notice error', role: 'alert' }, err.message || String(err));
  where.replaceChildren(box);
  return box;
}

export function when(ms) {
  const d = new Date(ms);
  return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) + ' ' +
    d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
