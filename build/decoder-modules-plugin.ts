import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Embind (the transcoder's C++ bindings) makes each bound function's JavaScript invoker from source text with
 * `new Function`, which a Content-Security-Policy without `'unsafe-eval'` forbids. This invoker, put in its
 * place, does the same at run time instead: checks the argument count, converts `this` and each argument to
 * its wire type (onto a destructor stack when any type needs one, else each type's own `destructorFunction`
 * afterwards), calls the C++ function and converts its result back. The names are `craftInvokerFunction`'s.
 */
const EMBIND_INVOKER = `var invokerFn = function (...args) {
  if (args.length !== argCount - 2) throwBindingError(\`function \${humanName} called with \${args.length} arguments, expected \${argCount - 2}\`);
  var destructors = needsDestructorStack ? [] : null;
  var wired = [cppTargetFunc];
  if (isClassMethodFunc) wired.push(argTypes[1].toWireType(destructors, this));
  for (var i = 2; i < argCount; ++i) wired.push(argTypes[i].toWireType(destructors, args[i - 2]));
  var rv = cppInvokerFunc(...wired);
  if (needsDestructorStack) runDestructors(destructors);
  else for (var i = isClassMethodFunc ? 1 : 2; i < argCount; ++i) if (argTypes[i].destructorFunction !== null) argTypes[i].destructorFunction(wired[i - 1]);
  return returns ? argTypes[0].fromWireType(rv) : undefined;
};`;

/**
 * Embind's `val` method callers are made from source text too; this caller, for
 * `__emval_create_invoker`'s `invokerFunction`, reads the arguments from the wire and calls the function
 * (kind 0), the method `methodName` (1) or the constructor (2) of the handle's value, or passes the argument
 * through (3), returning the result on the wire unless the return type is void.
 */
const EMVAL_CALLER = `var invokerFunction = function (handle, methodName, destructorsRef, args) {
  var values = argFromPtr.map((read, i) => read(args + i * GenericWireTypeSize));
  var result;
  if (kind === 0) result = Emval.toValue(handle)(...values);
  else if (kind === 1) result = Emval.toValue(handle)[getStringOrSymbol(methodName)](...values);
  else if (kind === 2) result = new (Emval.toValue(handle))(...values);
  else result = values[values.length - 1];
  return retType.isVoid ? undefined : emval_returnValue(toReturnWire, destructorsRef, result);
};`;

/**
 * The Emscripten decoder scripts Sinew bundles, by the virtual module id that imports each: the script, the
 * global its factory is assigned to, and text replaced in it (each must occur exactly once: a changed script
 * fails the build instead of shipping unpatched).
 * - `virtual:draco-decoder`: draco3dgltf's glTF Draco decoder (src/loaders/gltf/draco-decoder-module.ts).
 * - `virtual:basis-transcoder`: Binomial's Basis Universal transcoder as @loaders.gl/textures ships it
 *   (src/gpu/device/ktx2-texture.ts), its Embind invoker factories replaced by {@link EMBIND_INVOKER} and
 *   {@link EMVAL_CALLER}.
 */
const MODULES: Record<string, { script: string; factory: string; replace?: [string, string][] }> = {
  'virtual:draco-decoder': { script: 'draco3dgltf/draco_decoder_gltf_nodejs.js', factory: 'DracoDecoderModule' },
  'virtual:basis-transcoder': {
    script: '@loaders.gl/textures/dist/libs/basis_transcoder.js',
    factory: 'BASIS',
    replace: [
      ['let invokerFactory=createJsInvoker(argTypes,isClassMethodFunc,returns,isAsync);var invokerFn=invokerFactory(...closureArgs);', EMBIND_INVOKER],
      ['var invokerFunction=new Function(Object.keys(captures),functionBody)(...Object.values(captures));', EMVAL_CALLER],
    ],
  },
};

/**
 * `import factory from 'virtual:draco-decoder'` / `'virtual:basis-transcoder'`: an Emscripten decoder script as
 * an ES module whose default export is its factory, for the browser and node alike. The script is wrapped, not
 * evaluated at run time, and makes no code from text (no `eval` or `new Function`, so a page's Content-Security-Policy needs no
 * `'unsafe-eval'` for it, only `'wasm-unsafe-eval'` for its WebAssembly): `process`, `require`, `module`,
 * `exports`, `define` and `__filename` are shadowed so it takes neither its node path (which reads its
 * WebAssembly beside it with `fs`) nor a CommonJS or AMD export; the caller hands it the WebAssembly.
 * Used by vite.config.ts (every mode) and vitest.config.ts.
 */
export function decoderModules(): Plugin {
  return {
    name: 'sinew-decoder-modules',
    resolveId: (source) => (source in MODULES ? `\0${source}` : null),
    load(id) {
      const module = id.startsWith('\0') ? MODULES[id.slice(1)] : undefined;
      if (!module) return null;
      let script = readFileSync(resolve(import.meta.dirname, '../node_modules', module.script), 'utf8');
      for (const [from, to] of module.replace ?? []) {
        if (script.split(from).length !== 2) throw new Error(`${module.script}: expected "${from.slice(0, 60)}…" exactly once; the script changed`);
        script = script.replace(from, () => to);
      }
      const wrapped = `const process = undefined, require = undefined, module = undefined, exports = undefined, define = undefined, __filename = undefined;\n${script}\nexport default ${module.factory};\n`;
      return { code: wrapped, map: null };
    },
  };
}
