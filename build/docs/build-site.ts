/**
 * `npm run docs`: builds the documentation site into site/ (git-ignored), in this order:
 *
 * 1. the reference pages generated from the code (reference-pages.ts) into docs/reference/ (git-ignored files:
 *    element.md, cli.md, load-error-codes.md, shortcuts.md, performance.md);
 * 2. the API reference of every entry point (`sinew-gl`, `sinew-gl/element`, `sinew-gl/node`, `sinew-gl/testing`)
 *    by TypeDoc with typedoc-plugin-markdown and typedoc-vitepress-theme into docs/reference/api/ (git-ignored);
 * 3. `vitepress build docs` (docs/.vitepress/config.mts; outDir ../site);
 * 4. the viewer app (index.html, crowd.html) by vite with base './' into site/viewer/;
 * 5. the examples gallery (`buildExamples`, build-examples.ts) into site/examples/.
 *
 * `node --import tsx build/docs/build-site.ts [--skip-viewer]`. Any step that fails stops the build with its error
 * (exit 1). `npm run docs:dev` runs steps 1–2, then VitePress's dev server (`--dev`).
 */
import { mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Application, LogLevel } from 'typedoc';
import type { Command } from 'commander';
import { decoderModules } from '../decoder-modules-plugin.ts';
import { buildExamples } from './build-examples.ts';
import { cliReferencePage, elementReferencePage, loadErrorCodesPage, performancePage, shortcutsPage, type SourceTables } from './reference-pages.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const SITE = join(ROOT, 'site');
const REFERENCE = join(DOCS, 'reference');

/** The package's entry points, as TypeDoc documents them (package.json `exports`). */
export const API_ENTRY_POINTS = ['src/index.ts', 'src/element/index.ts', 'src/node/index.ts', 'src/testing.ts'];

/** Each entry point's TypeDoc module name → the import it is (package.json `exports`). */
const MODULE_NAMES: Readonly<Record<string, string>> = {
  index: 'sinew-gl', element: 'sinew-gl/element', 'element/index': 'sinew-gl/element', node: 'sinew-gl/node', 'node/index': 'sinew-gl/node', testing: 'sinew-gl/testing',
};

/** Sources of `<sinew-viewer>` scanned for its shadow parts and the events it fires. */
const ELEMENT_SOURCES = [
  'src/element/sinew-viewer-core.ts', 'src/element/sinew-viewer-element.ts', 'src/element/element-controls.ts',
  'src/element/element-loading.ts', 'src/element/element-reveal.ts', 'src/element/element-camera.ts',
  'src/element/element-animation-api.ts', 'src/element/element-hotspots.ts', 'src/element/element-playback.ts',
  'src/element/element-events.ts', 'src/element/element-environment.ts', 'src/element/element-attachments.ts',
  'src/element/element-animations.ts', 'src/element/element-avatar.ts',
];

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await run();
  console.log(`docs: ${name} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return result;
}

/**
 * Imports a module of src/ through Vite's module runner, as vitest does: src/ imports shaders with `?raw` and the
 * decoders' virtual modules, which plain node cannot load.
 */
async function importSource<T>(path: string): Promise<T> {
  const { runnerImport } = await import('vite');
  const { module } = await runnerImport<T>(join(ROOT, path), { root: ROOT, configFile: false, logLevel: 'warn', plugins: [decoderModules()] });
  return module;
}

/** Step 1: the generated reference pages. */
async function writeReferencePages(): Promise<void> {
  await mkdir(REFERENCE, { recursive: true });
  const attributes = await importSource<typeof import('../../src/element/element-attributes.ts')>('src/element/element-attributes.ts');
  const codes = await importSource<typeof import('../../src/loaders/load-error-codes.ts')>('src/loaders/load-error-codes.ts');
  const help = await importSource<typeof import('../../src/viewer/help-overlay.ts')>('src/viewer/help-overlay.ts');
  const cli = await importSource<{ createProgram(version: string, writeOut: (text: string) => void): Command }>('src/cli/commands.ts');
  const tables: SourceTables = {
    elementAttributes: attributes.ELEMENT_ATTRIBUTES,
    propertyName: (name) => attributes.propertyName(name as keyof typeof attributes.ELEMENT_ATTRIBUTES),
    loadErrorCodes: codes.LOAD_ERROR_CODES,
    shortcuts: help.SHORTCUTS,
  };
  const pages: Record<string, string> = {
    'element.md': elementReferencePage(ROOT, ELEMENT_SOURCES, tables),
    'cli.md': cliReferencePage(cli.createProgram('(version)', () => {})),
    'load-error-codes.md': loadErrorCodesPage(tables),
    'shortcuts.md': shortcutsPage(tables),
    'performance.md': performancePage(await readFile(join(ROOT, 'bench/results.json'), 'utf8')),
  };
  for (const [name, text] of Object.entries(pages)) await writeFile(join(REFERENCE, name), text);
}

/** Step 2: TypeDoc's Markdown for VitePress, with its sidebar (typedoc-sidebar.json) beside it. */
async function writeApiReference(): Promise<void> {
  const out = join(REFERENCE, 'api');
  await rm(out, { recursive: true, force: true });
  const app = await Application.bootstrapWithPlugins({
    entryPoints: API_ENTRY_POINTS.map((p) => join(ROOT, p)),
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out,
    // typedoc-vitepress-theme: links and the sidebar are relative to the VitePress source folder.
    docsRoot: DOCS,
    name: 'sinew-gl API',
    readme: 'none',
    entryFileName: 'index',
    excludePrivate: true,
    excludeProtected: true,
    excludeInternal: true,
    hideGenerator: true,
    // Source links would point at a git remote; a clone may have none (CI clones a local path).
    disableSources: true,
    // The type check is `tsc --noEmit`'s job; here only the declarations matter.
    skipErrorChecking: true,
    logLevel: LogLevel.Warn,
    // Doc comments name source files and docs pages in prose; TypeDoc need not resolve those as links.
    validation: { notExported: false, invalidLink: true, rewrittenLink: false },
    sidebar: { autoConfiguration: true, format: 'vitepress', pretty: false, collapsed: true },
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the entry points (see the messages above)');
  // TypeDoc names each module by its path (`index`, `element`, …); readers import them by package name.
  for (const module of project.children ?? []) module.name = MODULE_NAMES[module.name] ?? module.name;
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors (see the messages above)');
}

/** Step 3: VitePress. */
async function buildVitePress(): Promise<void> {
  const { build } = await import('vitepress');
  await build(DOCS);
}

/** Step 4: the viewer app, relative URLs so site/viewer/ works from any folder or host path. */
async function buildViewer(): Promise<void> {
  const { build } = await import('vite');
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    base: './',
    // The app's own build is checked by `npm run build:app`; here only failures matter.
    logLevel: 'error',
    build: { outDir: join(SITE, 'viewer'), emptyOutDir: true },
  });
}

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  await step('reference pages generated', writeReferencePages);
  await step('API reference (TypeDoc)', writeApiReference);
  if (dev) {
    const { createServer } = await import('vitepress');
    const server = await createServer(DOCS);
    await server.listen();
    server.printUrls();
    return;
  }
  await rm(SITE, { recursive: true, force: true });
  await step('VitePress build into site/', buildVitePress);
  if (!process.argv.includes('--skip-viewer')) await step('viewer app into site/viewer/', buildViewer);
  await step('examples into site/examples/', () => buildExamples(SITE));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
