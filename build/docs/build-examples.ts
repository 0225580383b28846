/**
 * The examples gallery: bundles every page of docs/examples/ (one small self-contained HTML page per feature,
 * written as a user of the package writes it) into `SITE/examples/`, each shown beside its own source with a copy
 * button, plus `index.html` (from docs/examples/manifest.json) and `credits.html`.
 *
 * Models: the built-in ones are made in code by the pages themselves (octopus, sword) or here (a morphed tube, a
 * twisting cylinder, a scene of many mesh nodes, and the generated VRM avatar with its look-at by bone and by
 * expression and a VRMA walk, its locomotion clips and the Drive page's graph, `SITE/examples/models/`). When `../shared/assets` exists, the third-party characters
 * the pages use are copied into `SITE/assets/` with their licences on the credits page; `SITE/assets/models.json`
 * lists the ones copied (empty without that folder), and the pages fall back to the octopus for the others.
 *
 * Run alone: `node --import tsx build/docs/build-examples.ts site`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { decoderModules } from '../decoder-modules-plugin.ts';
import { manyMeshNodes } from '../../tests/fixtures/large-models.ts';
import { skinnedMorphTube } from '../../tests/unit/helpers/morph-tube.ts';
import { galleryAvatarFiles, galleryBakedFiles, galleryDriveFiles, galleryOptimizedFiles, twistCylinderGlb } from './gallery-models.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLES = join(ROOT, 'docs/examples');
const SHARED = resolve(ROOT, '../shared/assets');

/** The third-party models the pages use, copied from `../shared/assets/gltf/` when it exists. */
export const GALLERY_MODELS = ['Fox.glb', 'CesiumMan.glb', 'RiggedFigure.glb'] as const;

/** One entry of docs/examples/manifest.json: a page of the gallery. */
export interface ExampleEntry {
  /** The page's file name in docs/examples/ (e.g. `embed.html`). */
  readonly page: string;
  /** Its title, as the index lists it. */
  readonly title: string;
  /** One line: what it shows. */
  readonly description: string;
}

/**
 * Reads docs/examples/manifest.json and checks it names every page of the folder once, and only those.
 * @throws Error naming the manifest and the page that is missing, unlisted or listed twice, or the malformed entry
 */
export function readManifest(folder = EXAMPLES): ExampleEntry[] {
  const file = join(folder, 'manifest.json');
  const entries = JSON.parse(readFileSync(file, 'utf8')) as ExampleEntry[];
  if (!Array.isArray(entries)) throw new Error(`${file}: expected an array of { page, title, description }`);
  const pages = new Set(readdirSync(folder).filter((f) => f.endsWith('.html')));
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    for (const key of ['page', 'title', 'description'] as const) {
      if (typeof e?.[key] !== 'string' || e[key] === '') throw new Error(`${file}: entry ${i} has no ${key}`);
    }
    if (!pages.has(e.page)) throw new Error(`${file}: entry ${i} names ${e.page}, which is not in ${folder}`);
    if (seen.has(e.page)) throw new Error(`${file}: ${e.page} is listed twice`);
    seen.add(e.page);
  });
  for (const page of pages) if (!seen.has(page)) throw new Error(`${file}: ${page} has no entry`);
  return entries;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PANEL_STYLE = `
  body { margin-right: calc(46vw + 16px) !important; }
  .gallery-source { position: fixed; top: 0; right: 0; bottom: 0; width: 46vw; box-sizing: border-box; display: flex;
    flex-direction: column; background: #1b1d22; color: #d8dae0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace;
    border-left: 1px solid #333; }
  .gallery-source header { display: flex; align-items: center; gap: 12px; padding: 8px 12px; border-bottom: 1px solid #333;
    font: 13px system-ui, sans-serif; }
  .gallery-source header a { color: #9ecbff; }
  .gallery-source header span { flex: 1; }
  .gallery-source button { font: inherit; padding: 3px 10px; cursor: pointer; }
  .gallery-source pre { margin: 0; padding: 12px; overflow: auto; flex: 1; white-space: pre; }
`;

/**
 * A page's source panel: the file as written (escaped, so the bundler leaves it alone), a copy button that copies
 * exactly that text, and links back to the gallery.
 */
function sourcePanel(page: string, source: string): string {
  return `
<style>${PANEL_STYLE}</style>
<aside class="gallery-source" aria-label="Source of ${escapeHtml(page)}">
  <header><a href="./index.html">Examples</a><span>${escapeHtml(page)}</span><button type="button" id="gallery-copy">Copy</button></header>
  <pre><code id="gallery-code">${escapeHtml(source)}</code></pre>
</aside>
<script>
  document.getElementById('gallery-copy').addEventListener('click', async (event) => {
    const text = document.getElementById('gallery-code').textContent;
    try { await navigator.clipboard.writeText(text); event.target.textContent = 'Copied'; }
    catch { event.target.textContent = 'Select and copy by hand'; }
  });
</script>
`;
}

/** A Vite plugin giving every page its source panel, from the file as written, before the bundler rewrites it. */
function sourcePanelPlugin(): Plugin {
  return {
    name: 'sinew-gallery-source',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        const page = basename(context.filename);
        const source = readFileSync(context.filename, 'utf8');
        const at = html.lastIndexOf('</body>');
        if (at < 0) throw new Error(`${context.filename}: no </body> to put the source panel before`);
        return html.slice(0, at) + sourcePanel(page, source) + html.slice(at);
      },
    },
  };
}

/** The package's entry points, as the pages import them, and the sources they are built from here. */
const ENTRY_POINTS: Readonly<Record<string, string>> = {
  'sinew-gl': join(ROOT, 'src/index.ts'),
  'sinew-gl/element': join(ROOT, 'src/element/index.ts'),
  'sinew-gl/testing': join(ROOT, 'src/testing.ts'),
};

/**
 * Resolves the package's entry points to its sources. `sinew-gl/element` is imported for its side effect (it
 * registers `<sinew-viewer>`), which package.json's `sideEffects` grants only to the built file: without
 * `moduleSideEffects` the bundler would drop `import 'sinew-gl/element'` as unused.
 */
function packageEntries(): Plugin {
  return {
    name: 'sinew-gallery-entries',
    enforce: 'pre',
    resolveId(source) {
      const id = ENTRY_POINTS[source];
      return id ? { id, moduleSideEffects: source === 'sinew-gl/element' } : null;
    },
  };
}

/** The licence and credit column of `../shared/assets/README.md`'s row for `file`. */
function creditOf(file: string): string {
  const readme = readFileSync(join(SHARED, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| ${file} |`));
  if (!row) throw new Error(`${join(SHARED, 'README.md')}: no row for ${file}, whose licence the credits page must name`);
  return row.split('|')[3].trim();
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { max-width: 860px; margin: 24px auto; padding: 0 16px; font: 15px/1.5 system-ui, sans-serif; color: #222; }
    li { margin: 6px 0; } td, th { text-align: left; padding: 4px 10px 4px 0; vertical-align: top; }
  </style>
</head>
<body>
${body}
</body>
</html>
`;
}

function indexPage(entries: readonly ExampleEntry[], copied: readonly string[]): string {
  const items = entries.map((e) => `  <li><a href="./${e.page}">${escapeHtml(e.title)}</a>: ${escapeHtml(e.description)}</li>`).join('\n');
  const models = copied.length
    ? `Some pages use third-party characters (${copied.join(', ')}): see the <a href="./credits.html">credits</a>.`
    : 'This build has no third-party models: the pages show the built-in octopus instead (<a href="./credits.html">credits</a>).';
  return page('Sinew examples', `<h1>Sinew examples</h1>
<p>Each page shows one thing, live, with its source beside it. ${models}</p>
<ul>
${items}
</ul>`);
}

function creditsPage(copied: readonly string[]): string {
  const rows = copied.map((f) => `  <tr><td>${escapeHtml(f)}</td><td>${escapeHtml(creditOf(f))}</td></tr>`).join('\n');
  const table = copied.length
    ? `<table>\n  <tr><th>model</th><th>licence and authors</th></tr>\n${rows}\n</table>`
    : '<p>This build copied no third-party model.</p>';
  return page('Sinew examples: credits', `<h1>Credits</h1>
<p>The octopus, the sword, the morphed tube, the twisting cylinder, the many-node scene, the VRM avatar (CC0 1.0), its
VRMA walk and its locomotion clips are made in code by Sinew (MIT).
The third-party models some examples show are served beside the gallery, each under its own licence:</p>
${table}
<p><a href="./index.html">Back to the examples</a></p>`);
}

/**
 * Builds the gallery into `siteDir/examples/` (emptied first) and its models into `siteDir/assets/`.
 * @param siteDir the built site's folder (`site/`); created when missing
 * @throws Error from the manifest check ({@link readManifest}), the bundler, or a missing licence row
 */
export async function buildExamples(siteDir: string): Promise<void> {
  const site = resolve(siteDir);
  const outDir = join(site, 'examples');
  const entries = readManifest();
  const input = Object.fromEntries(entries.map((e) => [e.page.replace(/\.html$/, ''), join(EXAMPLES, e.page)]));
  await build({
    configFile: false,
    root: EXAMPLES,
    base: './',
    publicDir: false,
    logLevel: 'warn',
    plugins: [packageEntries(), decoderModules(), sourcePanelPlugin()],
    build: {
      target: 'es2022',
      outDir,
      emptyOutDir: true,
      // The KTX2 transcoder chunk (fetched only for KTX2 models) is larger than Vite's default warning size.
      chunkSizeWarningLimit: 2048,
      rolldownOptions: {
        input,
        onLog(level, log, handler) {
          // gltf-transform's NodeIO imports node built-ins the browser never calls (vite.config.ts says why).
          if (log.plugin === 'rolldown:vite-resolve' && /Module "node:/.test(log.message)) return;
          // A note on the build's own speed, not on the pages.
          if (log.code === 'PLUGIN_TIMINGS') return;
          handler(level, log);
        },
      },
    },
  });

  const models = join(outDir, 'models');
  mkdirSync(models, { recursive: true });
  const tube = skinnedMorphTube({ targets: 3 });
  tube.json.materials = [{ name: 'teal', pbrMetallicRoughness: { baseColorFactor: [0.2, 0.7, 0.65, 1], metallicFactor: 0, roughnessFactor: 0.5 } }];
  tube.json.meshes[0].primitives[0].material = 0;
  writeFileSync(join(models, 'morph-tube.glb'), tube.glb());
  writeFileSync(join(models, 'twist-cylinder.glb'), twistCylinderGlb());
  writeFileSync(join(models, 'city.glb'), manyMeshNodes(4000, { materials: 4 }).glb());
  for (const { name, bytes } of await galleryAvatarFiles()) writeFileSync(join(models, name), bytes);
  for (const { name, bytes } of await galleryDriveFiles()) writeFileSync(join(models, name), bytes);
  for (const { name, bytes } of await galleryBakedFiles()) writeFileSync(join(models, name), bytes);
  for (const { name, bytes } of await galleryOptimizedFiles()) writeFileSync(join(models, name), bytes);

  const assets = join(site, 'assets');
  mkdirSync(assets, { recursive: true });
  const copied = existsSync(join(SHARED, 'gltf')) ? GALLERY_MODELS.filter((f) => existsSync(join(SHARED, 'gltf', f))) : [];
  for (const file of copied) copyFileSync(join(SHARED, 'gltf', file), join(assets, file));
  writeFileSync(join(assets, 'models.json'), JSON.stringify(copied) + '\n');
  writeFileSync(join(outDir, 'index.html'), indexPage(entries, copied));
  writeFileSync(join(outDir, 'credits.html'), creditsPage(copied));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const siteDir = process.argv[2];
  if (!siteDir) {
    console.error('usage: node --import tsx build/docs/build-examples.ts SITE_DIR');
    process.exit(2);
  }
  await buildExamples(siteDir);
  console.log(`examples: built into ${join(resolve(siteDir), 'examples')}`);
}
