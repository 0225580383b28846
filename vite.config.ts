import { defineConfig, type Plugin } from 'vite';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/**
 * Serves the read-only third-party models in ../shared/assets at /shared/assets/ during development and
 * browser tests, so the viewer can open them with ?model=/shared/assets/gltf/Fox.glb. They are never
 * copied into the repository or the production build.
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
        createReadStream(path).pipe(res);
      });
    },
  };
}

export default defineConfig({
  plugins: [sharedAssets()],
  server: { port: 5173, strictPort: false },
  build: { target: 'es2022', sourcemap: true },
});
