/**
 * `npm run bench:size`: what Sinew adds to a page, minified and gzipped, beside three.js and <model-viewer>.
 * Prints a table (nothing is written to the checkout):
 *
 * - `size.standalone_gzip`: dist/standalone/sinew-viewer.js, the whole `<sinew-viewer>` (dependencies included)
 *   as shipped;
 * - `size.skin_vertices_gzip`: a consumer bundle that imports only `skinVertices` from the built package (what
 *   tree-shaking leaves of `sinew-gl`), minified by Vite;
 * - `size.element_gzip`: a consumer bundle of `import 'sinew-gl/element'`, dependencies included, minified: the
 *   entry and what it imports statically;
 * - `size.element_lazy_gzip`: that bundle's chunks reached only by dynamic imports (the KHR_texture_basisu
 *   transcoder, the KHR_draco_mesh_compression and EXT_meshopt_compression decoders with Sinew's checks,
 *   WebAssembly inlined), loaded only for a model that needs them;
 * - `size.standalone_ktx2_gzip`, `size.standalone_draco_gzip`, `size.standalone_meshopt_gzip`: those chunks as
 *   dist/standalone/sinew-viewer.js fetches them from beside itself (dist/standalone/ktx2-texture-*.js,
 *   draco-primitives-*.js, meshopt-views-*.js); sinew-viewer.js itself holds none of them;
 * - `size.three_core_gzip`: three.js's core (`three/build/three.core.js`, the devDependency's version), minified
 *   by the same Vite run;
 * - `size.model_viewer_gzip`: `@google/model-viewer`'s published `dist/model-viewer.min.js` (three.js inside),
 *   fetched with `npm pack` into a temporary folder; null when the registry cannot be reached.
 *
 * Needs `npm run build` first (the `prepare` script has run it after `npm ci`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const MODEL_VIEWER_VERSION = '4.4.0';

function gzipKiB(bytes: Uint8Array | string): number {
  return gzipSync(bytes, { level: 9 }).length / 1024;
}

/** Bundles `source` (an ES module) with Vite's production settings and returns the gzipped size in KiB. */
async function bundledSize(source: string, work: string): Promise<number> {
  const entry = join(work, `entry-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(entry, source);
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root: work,
    resolve: { alias: { 'sinew-gl': root } },
    build: { write: false, lib: { entry, formats: ['es'], fileName: 'out' }, minify: true, target: 'es2022' },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []))
    .filter((chunk) => chunk.type === 'chunk');
  // What a page loads at once: the entry and the chunks it imports statically. Chunks reached only through a
  // dynamic import (the KTX2 transcoder) load when a model needs them, and are counted apart.
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const eager = new Set<string>();
  const visit = (name: string): void => {
    if (eager.has(name) || !byName.has(name)) return;
    eager.add(name);
    for (const next of byName.get(name)!.imports) visit(next);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  let eagerKiB = 0, lazyKiB = 0;
  for (const chunk of chunks) {
    if (eager.has(chunk.fileName)) eagerKiB += gzipKiB(chunk.code);
    else lazyKiB += gzipKiB(chunk.code);
  }
  lastLazyKiB = lazyKiB;
  return eagerKiB;
}

/** KiB (gzip -9) of the chunks the last {@link bundledSize} left to dynamic imports. */
let lastLazyKiB = 0;

/** KiB (gzip -9) of the standalone build's lazily loaded chunk whose file name starts with `prefix` (null when absent). */
function standaloneChunkKiB(prefix: string): number | null {
  const name = readdirSync(join(root, 'dist/standalone')).find((file) => file.startsWith(prefix) && file.endsWith('.js'));
  return name ? gzipKiB(readFileSync(join(root, 'dist/standalone', name))) : null;
}

function modelViewerSize(work: string): number | null {
  try {
    execFileSync('npm', ['pack', `@google/model-viewer@${MODEL_VIEWER_VERSION}`, '--silent', '--pack-destination', work], { stdio: 'ignore' });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    execFileSync('tar', ['xzf', tarball, 'package/dist/model-viewer.min.js'], { cwd: work });
    return gzipKiB(readFileSync(join(work, 'package/dist/model-viewer.min.js')));
  } catch {
    return null;
  }
}

const work = mkdtempSync(join(tmpdir(), 'sinew-size-'));
try {
  const figures: Record<string, number | null> = {
    'size.standalone_gzip': gzipKiB(readFileSync(join(root, 'dist/standalone/sinew-viewer.js'))),
    'size.standalone_ktx2_gzip': standaloneChunkKiB('ktx2-texture-'),
    'size.standalone_draco_gzip': standaloneChunkKiB('draco-primitives-'),
    'size.standalone_meshopt_gzip': standaloneChunkKiB('meshopt-views-'),
    'size.element_gzip': await bundledSize(`import '${root}/dist/element.js';`, work),
    'size.element_lazy_gzip': lastLazyKiB,
    'size.skin_vertices_gzip': await bundledSize(`import { skinVertices } from '${root}/dist/index.js'; console.log(skinVertices);`, work),
    'size.three_core_gzip': await bundledSize(`import * as THREE from '${root}/node_modules/three/build/three.core.js'; console.log(THREE);`, work),
    'size.model_viewer_gzip': modelViewerSize(work),
  };
  console.log('figure                       KiB (gzip -9)');
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(28)} ${value === null ? 'n/a' : value.toFixed(1)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
