import type { GltfAccessors } from './gltf-accessors.ts';

/**
 * The glTF file being read, as the builders of its parts (meshes, morph targets, mesh instances, clips) share it:
 * its name for errors and warnings, its accessor reader, and the load's warnings list they append to.
 */
export interface GltfReading {
  /** The file's name, first in every `LoadError` and warning. */
  readonly fileName: string;
  /** Reads the file's accessors (`GltfAccessors`: types, normalisation, sparse, bounds checked). */
  readonly accessors: GltfAccessors;
  /** The load's warnings (`ModelAsset.warnings`), appended to. */
  readonly warnings: string[];
}
