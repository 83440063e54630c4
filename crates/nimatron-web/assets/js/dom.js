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

// A row of a board that scrolls sideways (a long row of objects, a long
// word on a phone), with a cue at each edge that hides some of its `items`:
// how many lie beyond it, and a tap there scrolls the row by most of its
// width. The cues are for the eye and the finger: a screen reader reaches
// every item, and the keyboard's focus scrolls the row itself.
//
// The page draws the board anew on each change: the row drawn again under
// the same `key` keeps where the player had scrolled it, and when
// `reveal()` says so (once per move shown) it scrolls to show the last
// move's marks (`.ghost`, `.new`) if none is in sight. The element with
// the keyboard's focus stays in sight.
/**
 * @param {HTMLElement} row
 * @param {string} items
 * @param {{ key?: string, reveal?: () => boolean }} [opts]
 * @returns {HTMLElement}
 */
export function scrollCues(row, items, opts = {}) {
  const cue = (side) => h('span', {
    class: `more more-${side}`, 'aria-hidden': 'true', hidden: true,
    onclick: (/** @type {MouseEvent} */ e) => {
      e.stopPropagation();
      const by = Math.max(44, row.clientWidth * 0.8) * (side === 'left' ? -1 : 1);
      row.scrollBy({ left: by, behavior: reducedMotion() ? 'auto' : 'smooth' });
    },
  }, h('span', { class: 'more-text' }));
  const left = cue('left');
  const right = cue('right');
  row.prepend(left);
  row.append(right);
  const update = () => {
    if (!row.isConnected) return;
    const box = row.getBoundingClientRect();
    const mids = [...row.querySelectorAll(items)].map((st) => { const r = st.getBoundingClientRect(); return r.left + r.width / 2; });
    // Out of sight: beyond the row's edge, or under the cue there (which
    // covers it). The cue is shown first, then measured.
    const edges = () => [left.hidden ? box.left : left.firstChild.getBoundingClientRect().right,
      right.hidden ? box.right : right.firstChild.getBoundingClientRect().left];
    left.hidden = !mids.some((mid) => mid < box.left);
    right.hidden = !mids.some((mid) => mid > box.right);
    left.firstChild.textContent = '‹ 00';
    right.firstChild.textContent = '00 ›';
    const [lo, hi] = edges();
    const before = left.hidden ? 0 : mids.filter((mid) => mid < lo).length;
    const after = right.hidden ? 0 : mids.filter((mid) => mid > hi).length;
    left.hidden = !before;
    right.hidden = !after;
    left.firstChild.textContent = `‹ ${before}`;
    right.firstChild.textContent = `${after} ›`;
  };
  row.addEventListener('scroll', () => {
    if (opts.key && row.isConnected) scrolled.set(opts.key, row.scrollLeft);
    update();
  }, { passive: true });
  // Once the row is on the page and laid out, and whenever its width changes.
  if (typeof ResizeObserver === 'function') new ResizeObserver(update).observe(row);
  requestAnimationFrame(() => {
    if (!row.isConnected) return;
    if (opts.key && scrolled.has(opts.key)) row.scrollLeft = scrolled.get(opts.key) || 0;
    if (opts.reveal && opts.reveal()) showMarks(row);
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && row.contains(focused)) focused.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    update();
  });
  return row;
}

// Where each row was scrolled, by its key.
/** @type {Map<string, number>} */
const scrolled = new Map();

// Scroll a row so that the last move's marks in it are in sight, centred,
// unless one of them already is (clear of the cues).
/** @param {HTMLElement} row */
function showMarks(row) {
  const marks = [...row.querySelectorAll('.ghost, .new')].map((m) => m.getBoundingClientRect());
  if (!marks.length || row.scrollWidth <= row.clientWidth) return;
  const box = row.getBoundingClientRect();
  if (marks.some((r) => r.left >= box.left + CUE_ROOM && r.right <= box.right - CUE_ROOM)) return;
  const mid = (marks[0].left + marks[marks.length - 1].right) / 2;
  row.scrollLeft += mid - (box.left + box.right) / 2;
}
const CUE_ROOM = 52;
