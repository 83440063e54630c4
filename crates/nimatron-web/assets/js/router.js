// Moving between pages without reloading: links marked `data-link`, the
// back button, and what a page asks to undo when it is left.

/** @type {(path: string) => void} */
let route = () => {};
let cleanup = [];
let inApp = false;

// Whether the page shown was reached from another page of the app (a
// link, a form), rather than loaded: such a page puts the keyboard's focus
// on itself, since what had it is gone.
export const reachedInApp = () => inApp;

export function onLeave(fn) { cleanup.push(fn); }

export function navigate(url, replace) {
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  inApp = true;
  show();
}

function show() {
  for (const fn of cleanup) fn();
  cleanup = [];
  route(location.pathname);
}

// Draw the page of each path with `pageFor(path)`, now and on every move.
export function startRouter(pageFor) {
  route = pageFor;
  document.addEventListener('click', (e) => {
    /** @type {HTMLAnchorElement | null} */
    const a = e.target instanceof Element ? e.target.closest('a[data-link]') : null;
    if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && a.origin === location.origin) {
      e.preventDefault();
      navigate(a.pathname + a.search);
    }
  });
  window.addEventListener('popstate', () => { inApp = true; show(); });
  show();
}
