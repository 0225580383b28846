import { defineConfig, type Plugin, type UserConfig } from 'vite';

type OnLog = NonNullable<NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>['onLog']>;
import { createReadStream, existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import pkg from './package.json' with { type: 'json' };
// Every mode that bundles the glTF loader needs this plugin (src/loaders/gltf/draco-decoder-module.ts imports
// 'virtual:draco-decoder', src/gpu/device/ktx2-texture.ts 'virtual:basis-transcoder'); a mode without it fails to
// build, loudly. vitest.config.ts adds it too.
import { decoderModules } from './build/decoder-modules-plugin.ts';
// `npm run dev` serves the built docs site (site/) at /site/, where the viewer page's docs and gallery links point.
import { sitePreview } from './build/site-preview-plugin.ts';

/**
 * Serves the read-only third-party models in ../shared/assets at /shared/assets/ during development and
 * browser tests, so the viewer can open them with ?model=/shared/assets/gltf/Fox.glb. They are never
 * copied into the repository or any build.
 */
function sharedAssets(): Plugin {
  const root = resolve(import.meta.dirname, '../shared/assets');
  return {
    name: 'sinew-shared-assets',
    configureServer(server) {
      server.middlewares.use('/shared/assets', (req, res, next) => {
        const path = resolve(root, '.' + decodeURIComponent((req.url ?? '/').split('?')[0]));
        if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile()) return next();
        res.setHeader('Cache-Control', 'no-store');
        // A length lets the viewer's download bar show progress, not just activity.
        res.setHeader('Content-Length', statSync(path).size);
        createReadStream(path).pipe(res);
      });
    },
  };
}

const src = (path: string) => resolve(import.meta.dirname, 'src', path);

/** A bare import of a runtime dependency, or a node built-in: left to the consumer's resolver in `--mode lib`. */
function isExternal(id: string): boolean {
  if (id.startsWith('node:')) return true;
  return Object.keys(pkg.dependencies).some((name) => id === name || id.startsWith(name + '/'));
}

/**
 * gltf-transform's NodeIO (never used by the browser loader) imports node:fs / node:path; Vite stubs them out
 * for the browser, which is what we want, so its note about that is not shown.
 */
const quietNodeStubs: OnLog = (level, log, handler) => {
  if (log.plugin === 'rolldown:vite-resolve' && /Module "node:/.test(log.message)) return;
  handler(level, log);
};

/**
 * `vite` / `vite build` (no mode): the demo viewer (index.html) into dist/app.
 * `vite build --mode lib`: the package's ES module entries into dist/ (`sinew-gl`, `sinew-gl/element`,
 * `sinew-gl/node`, `sinew-gl/testing`, the `sinew` command), dependencies left as imports.
 * `vite build --mode standalone`: dist/standalone/sinew-viewer.js, the `<sinew-viewer>` element as one
 * self-contained module (dependencies and shaders inlined) for pages without a bundler, with the chunks it loads
 * on demand (the Draco, meshopt and KTX2 decoders) beside it in that folder.
 * `vite build --mode bench`: dist/bench/crowd-bench.html, skin-once-bench.html and mtoon-bench.html, the static benchmark pages (bench/pages), relative
 * URLs so any static server can serve it from any folder; not part of the published package.
 * The default build has two pages: the viewer (index.html) and the crowd demo (crowd.html).
 */
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'lib') {
    return {
      publicDir: false,
      plugins: [decoderModules()],
      build: {
        target: 'es2022',
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        minify: false,
        lib: {
          entry: { index: src('index.ts'), element: src('element/index.ts'), node: src('node/index.ts'), testing: src('testing.ts'), cli: src('cli/main.ts') },
          formats: ['es'],
        },
        rolldownOptions: { external: isExternal, output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
      },
    };
  }
  if (mode === 'standalone') {
    return {
      publicDir: false,
      plugins: [decoderModules()],
      build: {
        target: 'es2022',
        // A folder of its own, holding the element and every chunk it loads and nothing else: copying that one
        // folder is enough for a page (package.json exports it as `sinew-gl/sinew-viewer.js`).
        outDir: 'dist/standalone',
        emptyOutDir: true,
        lib: { entry: src('element/index.ts'), formats: ['es'], fileName: () => 'sinew-viewer.js' },
        rolldownOptions: {
          // The lazily loaded chunks (the Draco reader, the KTX2 transcoder) may import what the element already
          // holds (gltf-transform's core) from sinew-viewer.js itself, which exports it to them, instead of a
          // third file split off both: the element stays one file, the chunks load beside it.
          preserveEntrySignatures: 'allow-extension',
          onLog: quietNodeStubs,
        },
      },
    };
  }
  if (mode === 'bench') {
    return {
      root: resolve(import.meta.dirname, 'bench/pages'),
      base: './',
      publicDir: false,
      plugins: [decoderModules()],
      build: {
        target: 'es2022',
        outDir: resolve(import.meta.dirname, 'dist/bench'),
        emptyOutDir: true,
        // The KTX2 transcoder chunk (fetched only for KTX2 models) is larger than Vite's default 500 kB warning.
        chunkSizeWarningLimit: 2048,
        rolldownOptions: {
          input: {
            'crowd-bench': resolve(import.meta.dirname, 'bench/pages/crowd-bench.html'),
            'skin-once-bench': resolve(import.meta.dirname, 'bench/pages/skin-once-bench.html'),
            'mtoon-bench': resolve(import.meta.dirname, 'bench/pages/mtoon-bench.html'),
          },
          onLog: quietNodeStubs,
        },
      },
    };
  }
  return {
    plugins: [sharedAssets(), sitePreview(), decoderModules()],
    server: { port: 5173, strictPort: false },
    build: {
      target: 'es2022',
      sourcemap: true,
      outDir: 'dist/app',
      rolldownOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), crowd: resolve(import.meta.dirname, 'crowd.html') } },
    },
  };
});
