import mtoonSource from '../../../shaders/mtoon.glsl?raw';

/**
 * `source` with its `#pragma mtoon` line replaced by shaders/mtoon.glsl (MToon's uniforms, `mtoonShade`,
 * `mtoonAnimateUv`; used by lit.frag under `#ifdef MTOON`).
 * @throws Error when `source` has no `#pragma mtoon` line
 */
export function withMToon(source: string): string {
  if (!source.includes('#pragma mtoon')) throw new Error('withMToon: the shader has no #pragma mtoon line');
  return source.replace('#pragma mtoon', mtoonSource);
}
