import type { GLTF } from '@gltf-transform/core';

/** Whether `buffer` is an EXT_meshopt_compression fallback buffer (it may have no data). */
export function isMeshoptFallback(buffer: GLTF.IBuffer): boolean {
  const extension = buffer.extensions?.EXT_meshopt_compression as { fallback?: unknown } | undefined;
  return typeof extension === 'object' && extension !== null && extension.fallback === true;
}
