/** A model the panel's Model ▸ Sample list offers. */
export interface SampleModel {
  /** What the list shows. */
  readonly label: string;
  /** URL to open, or null for the built-in octopus. */
  readonly url: string | null;
}

/**
 * The models the viewer page offers in its sample list: the built-in octopus always; in development (the
 * vite dev server, which serves the repository's shared third-party models at `/shared/assets/`, see
 * vite.config.ts) also those, which no build ships.
 */
export function sampleModels(development: boolean): SampleModel[] {
  const builtIn: SampleModel[] = [{ label: 'Octopus (built-in)', url: null }];
  if (!development) return builtIn;
  const shared = [
    'gltf/CesiumMan.glb', 'gltf/Fox.glb', 'gltf/RiggedFigure.glb', 'gltf/RiggedSimple.glb', 'gltf/SimpleSkin.gltf',
    'gltf/RecursiveSkeletons.glb', 'gltf/InterpolationTest.glb', 'gltf/quad_skin.glb', 'md5/Bob.md5mesh', 'md5/SimpleCube.md5mesh',
  ];
  return [...builtIn, ...shared.map((path) => ({ label: path.slice(path.indexOf('/') + 1), url: `/shared/assets/${path}` }))];
}
