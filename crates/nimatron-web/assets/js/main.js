// Nimatron in the browser: plain JavaScript modules over the JSON API
// (docs/api.md). This one maps paths to pages and starts the app.

import { startRouter } from './router.js';
import { homePage } from './new-game.js';
import { historyPage } from './history.js';
import { playPage } from './play.js';
import { explorePage } from './explore.js';

function pageFor(path) {
  document.querySelectorAll('nav a').forEach((a) => {
    const active = a.getAttribute('href') === '/' ? (path === '/' || path.startsWith('/play/')) : path.startsWith(a.getAttribute('href'));
    a.classList.toggle('active', active);
  });
  const m = path.match(/^\/play\/([0-9a-f]{16})$/);
  if (m) return playPage(m[1]);
  if (path === '/history') return historyPage();
  if (path === '/explore') return explorePage();
  return homePage();
}

startRouter(pageFor);
