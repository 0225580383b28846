import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/explanation/architecture.md "Rooms": each folder of src/ imports only from folders of a lower rank, no files import
// each other in a circle, node-only code stays out of the loaders, nothing below view/ touches the DOM, and no source
// file is over 600 lines.

const SRC = resolve(import.meta.dirname, '../../../src');

/** A folder's rank in the data flow (docs/explanation/architecture.md): imports go to strictly lower ranks only. */
const RANK: Record<string, number> = {
  math: 0, errors: 0, schedule: 0, wasm: 0,
  skeleton: 1,
  asset: 2,
  skinning: 3, animation: 3, ik: 3, humanoid: 3, secondary: 3,
  pose: 4, avatar: 4,
  scene: 5, procedural: 5, loaders: 5, 'gpu/device': 5,
  'gpu/shading': 6, export: 6, compression: 6,
  'gpu/skinning': 7,
  'gpu/debug': 8,
  'gpu/passes': 9,
  'crowd/gpu': 10,
  view: 11, node: 11, crowd: 11, video: 11,
  cli: 12, viewer: 12, element: 12,
  '(package entry points)': 13,
};

const MAX_LINES = 600;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * The room of src/ a file is in: its folder, or a folder and subfolder where the table ranks the pair (`gpu/device`,
 * `crowd/gpu`); files directly in src/ are the package's entry points.
 */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return '(package entry points)';
  const nested = `${parts[0]}/${parts[1]}`;
  return parts.length > 2 && nested in RANK ? nested : parts[0];
}

/** Every specifier a file imports or re-exports, static or dynamic (`import('…')`). */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*'([^']+)'|(?:^|\n)\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
    found.push(match[1] ?? match[2] ?? match[3]);
  }
  return found;
}

/**
 * Globals that only a page's DOM has: the document and window, the page's navigation and storage, its elements and
 * their constructors, layout observers and the frame clock. Rooms ranked below `view` run in node, workers and
 * tests without a page, so they take what they need from a page as values (a base URL, a canvas's GL context, a
 * clock) and use none of these. Not DOM for this rule, as workers and node have them too: `fetch`, `Request`,
 * `Response`, `URL`, `Blob`, `File`, `createImageBitmap`, `ImageBitmap`, `ImageData`, `OffscreenCanvas`, `WebGL2RenderingContext`
 * and the other GL types, `EventTarget`, `performance`, timers. Type positions are not uses (an annotation naming
 * `HTMLCanvasElement` runs nothing), nor are property names (`x.location`, `{ location: … }`), nor a name the file
 * declares itself; `globalThis.X`, `self.X` and `window.X` count as X.
 */
const DOM_GLOBALS = new Set([
  'document', 'window', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'customElements',
  'addEventListener', 'removeEventListener', 'dispatchEvent', 'requestAnimationFrame', 'cancelAnimationFrame',
  'getComputedStyle', 'matchMedia', 'ResizeObserver', 'IntersectionObserver', 'MutationObserver', 'Image', 'DOMParser',
  'Element', 'Node', 'ShadowRoot', 'DocumentFragment',
]);
const isDomGlobal = (name: string): boolean => DOM_GLOBALS.has(name) || /^(HTML|SVG)\w*Element$/.test(name);

/** `line: name` for each use of a DOM global in a file's code (comments, strings, types and imports of types skipped). */
function domUses(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const declared = new Set<string>();
  const collect = (node: ts.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)
      || ts.isImportSpecifier(node) || ts.isImportClause(node) || ts.isBindingElement(node)) && node.name && ts.isIdentifier(node.name)) {
      declared.add(node.name.text);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const uses: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isInterfaceDeclaration(node)
      || ts.isTypeAliasDeclaration(node)) return;
    let name: string | null = null;
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)
      && ['globalThis', 'self', 'window'].includes(node.expression.text) && isDomGlobal(node.name.text)) {
      name = `${node.expression.text}.${node.name.text}`;
    } else if (ts.isIdentifier(node) && isDomGlobal(node.text) && !declared.has(node.text)) {
      const parent = node.parent;
      const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node)
        || ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent)
          || ts.isPropertySignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) && parent.name === node);
      if (!isPropertyName) name = node.text;
    }
    if (name) uses.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${name}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

const files = sourceFiles(SRC);
const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
/** file → the files of src/ it imports. */
const graph = new Map(files.map((file) => [file, specifiersOf(texts.get(file)!)
  .filter((spec) => spec.startsWith('.'))
  .map((spec) => resolve(dirname(file), spec.replace(/\?.*$/, '')))
  .filter((target) => target.startsWith(SRC + '/') && target.endsWith('.ts'))]));

describe('the layout follows the data flow (docs/explanation/architecture.md)', () => {
  it('sees the source tree and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...graph.values()].reduce((n, targets) => n + targets.length, 0)).toBeGreaterThan(300);
  });

  it('ranks every folder of src/', () => {
    const unranked = [...new Set(files.map(roomOf))].filter((room) => !(room in RANK));
    expect(unranked, 'add each new folder to RANK here and to docs/explanation/architecture.md').toEqual([]);
  });

  it('imports only run downward: a folder imports folders of a lower rank, or itself', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = roomOf(file);
      for (const target of targets) {
        const to = roomOf(target);
        if (to !== from && !(RANK[to] < RANK[from])) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no files import each other in a circle', () => {
    // Tarjan's strongly connected components: any component of more than one file is a circle.
    const index = new Map<string, number>(), low = new Map<string, number>();
    const stack: string[] = [], onStack = new Set<string>();
    const circles: string[][] = [];
    let next = 0;
    const visit = (file: string): void => {
      index.set(file, next); low.set(file, next); next++;
      stack.push(file); onStack.add(file);
      for (const target of graph.get(file) ?? []) {
        if (!index.has(target)) {
          visit(target);
          low.set(file, Math.min(low.get(file)!, low.get(target)!));
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file)!, index.get(target)!));
        }
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(relative(SRC, member));
        } while (member !== file);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const file of files) if (!index.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('src/loaders imports no node: module (node-only reading lives in src/node)', () => {
    const nodeImports = files
      .filter((file) => roomOf(file) === 'loaders')
      .filter((file) => specifiersOf(texts.get(file)!).some((spec) => spec.startsWith('node:')))
      .map((file) => relative(SRC, file));
    expect(nodeImports).toEqual([]);
  });

  it('nothing ranked below view/ touches the DOM (DOM_GLOBALS: a page passes in what the lower rooms need)', () => {
    const touching = files
      .filter((file) => RANK[roomOf(file)] < RANK.view)
      .flatMap((file) => domUses(file, texts.get(file)!).map((use) => `${relative(SRC, file)}:${use}`));
    expect(touching).toEqual([]);
  });

  it(`no source file is over ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(SRC, file), lines: texts.get(file)!.split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
