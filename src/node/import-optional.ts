import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Node only: imports an optional peer dependency by name, resolved at run time next to Sinew's own files, so
 * that a bundler of `sinew-gl/node` never tries to resolve (or inline) it. For a CommonJS package the exports
 * object is returned (`default` unwrapped when it holds them).
 * @returns the module, or null when it is not installed
 * @throws Error when it is installed but fails to load
 */
export async function importOptional<T>(name: string): Promise<T | null> {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    return null;
  }
  const module = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as { default?: unknown };
  const exports = module.default;
  return (exports && (typeof exports === 'object' || typeof exports === 'function') ? exports : module) as T;
}
