// The browser app's modules pass TypeScript's checker (`tsc --checkJs`,
// pinned in package.json) with their JSDoc types: an import of a name that
// no module exports, a call with a wrong argument, a DOM property on the
// wrong kind of element fail here, not in a player's browser.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const ASSETS = path.join(ROOT, 'crates', 'nimatron-web', 'assets');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Run tsc on the project `dir/tsconfig.json`; its exit status and output. */
function tsc(dir) {
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.error, undefined, String(r.error));
  return { status: r.status, out: r.stdout + r.stderr };
}

test('tsc --checkJs finds no type error in the browser app', () => {
  assert.ok(fs.existsSync(TSC), `${TSC} is missing: run npm ci (scripts/browser-tests.sh does)`);
  const { status, out } = tsc(ASSETS);
  assert.equal(status, 0, out);
});

test('tsc --checkJs finds errors planted in a copy of the modules', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimatron-tsc-'));
  try {
    fs.mkdirSync(path.join(tmp, 'js'));
    fs.copyFileSync(path.join(ASSETS, 'tsconfig.json'), path.join(tmp, 'tsconfig.json'));
    for (const n of fs.readdirSync(path.join(ASSETS, 'js'))) fs.copyFileSync(path.join(ASSETS, 'js', n), path.join(tmp, 'js', n));
    const edit = (name, f) => { const p = path.join(tmp, 'js', name); fs.writeFileSync(p, f(fs.readFileSync(p, 'utf8'))); };
    // A name that selection.js does not export, and a gesture given one
    // atom where it takes a list of them.
    edit('heap-board.js', (t) => t.replace("import { clearPick, gesture } from './selection.js';", "import { clearPick, gesture, clearSelection } from './selection.js';"));
    edit('shapes.js', (t) => t.replace("gesture(s, d.atoms, { complete: true, describe: 'Taking those cells' });", "gesture(s, 'c0.0', { complete: true, describe: 'Taking those cells' });"));
    const { status, out } = tsc(tmp);
    assert.notEqual(status, 0, out);
    assert.match(out, /heap-board\.js.*clearSelection/);
    assert.match(out, /shapes\.js.*not assignable to parameter of type 'string\[\]'/);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
