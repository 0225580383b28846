/** A model the panel's Model ▸ Sample list offers. */
export interface SampleModel {
  /** What the list shows. */
  readonly label: string;
  /** URL to open (relative to the page), or null for a model made in the page: the octopus, or {@link generated}. */
  readonly url: string | null;
  /**
   * With `url` null: `vrm-avatar` is the generated VRM avatar, `vrm-avatar-toon` the same in MToon with outlines
   * (`generatedAvatarFile`); absent, the octopus.
   */
  readonly generated?: GeneratedAvatarKind;
}

/** The models the viewer page may offer, and where those beyond the built-in octopus come from. */
export interface SampleCatalogue {
  /**
   * The built-in octopus first, the generated VRM avatar second, its toon (MToon) twin third, then the openly licensed models that may be there
   * (probe them: {@link availableSamples}).
   */
  readonly candidates: readonly SampleModel[];
  /** Said under the list: where the extra models come from. */
  readonly source: string;
}

/** Which generated VRM avatar a sample is: drawn with glTF PBR materials, or in MToon (toon shading and outlines). */
export type GeneratedAvatarKind = 'vrm-avatar' | 'vrm-avatar-toon';

/** The generated VRM avatar sample's file name, without its extension (`.vrm`, or `.glb` where `.vrm` is not read). */
export const GENERATED_AVATAR_NAME = 'generated-avatar';

/** The toon (MToon) generated avatar sample's file name, without its extension. */
export const GENERATED_TOON_AVATAR_NAME = 'generated-avatar-toon';

/** The file name, without extension, of each generated avatar sample. */
export const GENERATED_AVATAR_NAMES: Readonly<Record<GeneratedAvatarKind, string>> = {
  'vrm-avatar': GENERATED_AVATAR_NAME, 'vrm-avatar-toon': GENERATED_TOON_AVATAR_NAME,
};

/**
 * The entry of `samples` that shows the model named `shownName` (the loader's name: a file name, or the octopus's
 * asset name), compared without case: the entry of that label, or the generated avatar for its file.
 */
export function sampleShowing(samples: readonly SampleModel[], shownName: string): SampleModel | undefined {
  const shown = shownName.toLowerCase();
  return samples.find((sample) => sample.label.toLowerCase() === shown
    || (sample.generated !== undefined && shown.replace(/\.[^.]*$/, '') === GENERATED_AVATAR_NAMES[sample.generated]));
}

/** The third-party models of the repository's `../shared/assets` folder the development page offers, by path there. */
const SHARED_MODELS = [
  'gltf/CesiumMan.glb', 'gltf/Fox.glb', 'gltf/RiggedFigure.glb', 'gltf/RiggedSimple.glb', 'gltf/SimpleSkin.gltf',
  'gltf/RecursiveSkeletons.glb', 'gltf/InterpolationTest.glb', 'gltf/quad_skin.glb', 'md5/Bob.md5mesh', 'md5/SimpleCube.md5mesh',
];

/** The characters `npm run docs` copies from `../shared/assets` into the site's `assets/` folder, beside `viewer/`. */
const SITE_MODELS = ['CesiumMan.glb', 'Fox.glb', 'RiggedFigure.glb'];

/**
 * The models the viewer page may offer in its sample list: the built-in octopus and the generated VRM avatar, in
 * PBR and in MToon (all made in the page, no file served) always, and openly licensed
 * third-party models that no package ships (their licences: the credits page of the docs site, and
 * `../shared/assets/README.md`):
 * - in development (`npm run dev`), those of the repository's `../shared/assets` folder, which the dev server
 *   serves at `/shared/assets/` (vite.config.ts);
 * - in the built docs site (the viewer at `site/viewer/`), the characters `npm run docs` copies into
 *   `site/assets/`, at `../assets/`.
 * Either folder may be missing: {@link availableSamples} keeps the ones that are there.
 */
export function sampleModels(development: boolean): SampleCatalogue {
  const builtIn: SampleModel = { label: 'Octopus (built-in)', url: null };
  const avatar: SampleModel = { label: 'VRM avatar (generated)', url: null, generated: 'vrm-avatar' };
  const toonAvatar: SampleModel = { label: 'VRM avatar, toon (generated)', url: null, generated: 'vrm-avatar-toon' };
  if (development) {
    return {
      candidates: [builtIn, avatar, toonAvatar, ...SHARED_MODELS.map((path) => ({ label: path.slice(path.indexOf('/') + 1), url: `/shared/assets/${path}` }))],
      source: 'Other models: ../shared/assets beside the repository (served at /shared/assets/ by npm run dev); those absent are not listed.',
    };
  }
  return {
    candidates: [builtIn, avatar, toonAvatar, ...SITE_MODELS.map((file) => ({ label: file, url: `../assets/${file}` }))],
    source: 'Other models: the docs site\'s assets/ folder (copied from ../shared/assets by npm run docs); those absent are not listed.',
  };
}

/**
 * The `candidates` that are there: the models made in the page, and each model whose URL a `HEAD` request answers with
 * a success that is not an HTML page (a development server answers an unknown path with the app's
 * index.html). Probed at once, in parallel; a network failure counts as absent. Order kept.
 * @param probe the fetch to use (default: the page's)
 */
export async function availableSamples(candidates: readonly SampleModel[], probe: typeof fetch = (input, init) => fetch(input, init)): Promise<SampleModel[]> {
  const present = await Promise.all(candidates.map(async (sample) => {
    if (sample.url === null) return true;
    try {
      const response = await probe(sample.url, { method: 'HEAD', cache: 'no-store' });
      return response.ok && !(response.headers.get('content-type') ?? '').startsWith('text/html');
    } catch {
      return false;
    }
  }));
  return candidates.filter((_, i) => present[i]);
}
