// The browser app's JavaScript modules import one another without a
// circle: each import names a module that exists, and following imports
// from any module never leads back to it. (A circle works in a browser only
// while no module uses an import at its top level; it makes the load order
// matter and the modules impossible to read one at a time.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIR = path.join(__dirname, '..', '..', 'crates', 'nimatron-web', 'assets', 'js');

/** The relative imports of a module's text: static `import … from`, bare `import '…'`, `export … from` and `import(…)`. */
function importsOf(text) {
  // Comments would give false imports.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out = [];
  const patterns = [
    /\bimport\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]);
  return out;
}

/** The import graph of the `.js` files of `dir`: module name → names it imports. */
function graphOf(dir) {
  const graph = new Map();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.js')).sort()) {
    const deps = importsOf(fs.readFileSync(path.join(dir, name), 'utf8')).map((spec) => {
      assert.ok(spec.startsWith('./'), `${name} imports ${spec}: only modules of this folder, by './NAME.js'`);
      return spec.slice(2);
    });
    graph.set(name, deps);
  }
  for (const [name, deps] of graph) {
    for (const d of deps) assert.ok(graph.has(d), `${name} imports ${d}, which is not in ${dir}`);
  }
  return graph;
}

/** A circle of imports, as the list of modules around it (first repeated at the end), or null. */
function findCircle(graph) {
  const state = new Map(); // 1: on the path now, 2: done
  const stack = [];
  function visit(n) {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) || []) {
      if (state.get(d) === 1) return [...stack.slice(stack.indexOf(d)), d];
      if (!state.has(d)) {
        const c = visit(d);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  }
  for (const n of graph.keys()) {
    if (!state.has(n)) {
      const c = visit(n);
      if (c) return c;
    }
  }
  return null;
}

test('the JavaScript modules import one another without a circle', () => {
  const graph = graphOf(DIR);
  assert.ok(graph.size >= 10, `only ${graph.size} modules found in ${DIR}`);
  assert.ok(graph.get('main.js').includes('play.js'), 'the import reader finds main.js importing play.js');
  // Every module is reached from the entry the page loads.
  const reached = new Set();
  const walk = (n) => { if (reached.has(n)) return; reached.add(n); graph.get(n).forEach(walk); };
  walk('main.js');
  assert.deepEqual([...graph.keys()].filter((n) => !reached.has(n)), [], 'modules main.js never loads');
  const circle = findCircle(graph);
  assert.equal(circle, null, `a circle of imports: ${circle && circle.join(' → ')}`);
});

test('the circle check finds a circle planted in a copy of the modules', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimatron-modules-'));
  try {
    for (const n of fs.readdirSync(DIR)) fs.copyFileSync(path.join(DIR, n), path.join(tmp, n));
    assert.equal(findCircle(graphOf(tmp)), null);
    // The circle this check was written against: the board's shapes
    // importing the board that draws them.
    const file = path.join(tmp, 'shapes.js');
    fs.writeFileSync(file, "import { drawBoard } from './board.js';\n" + fs.readFileSync(file, 'utf8'));
    const circle = findCircle(graphOf(tmp));
    assert.ok(circle, 'the planted circle was not found');
    assert.equal(circle[0], circle[circle.length - 1]);
    assert.ok(circle.includes('shapes.js') && circle.includes('board.js'), circle.join(' → '));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('the import reader reads every form of import, and not those in comments', () => {
  const text = [
    "import { a, b } from './one.js';",
    "import * as two from \"./two.js\";",
    "import def, { c } from './three.js';",
    "import './four.js';",
    "export { d } from './five.js';",
    "export * from './six.js';",
    "const later = () => import('./seven.js');",
    "// import { x } from './not-this.js';",
    "/* import './nor-this.js'; */",
  ].join('\n');
  assert.deepEqual(importsOf(text).sort(), ['./five.js', './four.js', './one.js', './seven.js', './six.js', './three.js', './two.js']);
});
