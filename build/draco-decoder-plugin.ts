import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The module id src/loaders/gltf/draco-decoder-module.ts imports the Draco decoder factory from. */
const ID = 'virtual:draco-decoder';

/**
 * `import DracoDecoderModule from 'virtual:draco-decoder'`: draco3dgltf's Emscripten decoder script as an ES
 * module whose default export is its factory, for the browser and node alike. The script is wrapped, not
 * evaluated at run time (no `eval`, so a page's Content-Security-Policy needs no `'unsafe-eval'` for it):
 * `process`, `require`, `module`, `exports` and `define` are shadowed so it takes neither its node path (which
 * reads its WebAssembly beside it with `fs`) nor a CommonJS or AMD export; the caller hands it the WebAssembly.
 * Used by vite.config.ts (every mode) and vitest.config.ts.
 */
export function dracoDecoderModule(): Plugin {
  const script = resolve(import.meta.dirname, '../node_modules/draco3dgltf/draco_decoder_gltf_nodejs.js');
  return {
    name: 'sinew-draco-decoder',
    resolveId: (source) => (source === ID ? `\0${ID}` : null),
    load(id) {
      if (id !== `\0${ID}`) return null;
      const wrapped = `const process = undefined, require = undefined, module = undefined, exports = undefined, define = undefined;\n${readFileSync(script, 'utf8')}\nexport default DracoDecoderModule;\n`;
      return { code: wrapped, map: null };
    },
  };
}
