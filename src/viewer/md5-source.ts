import type { ModelAsset } from '../asset/model-asset.ts';
import { parseMd5Anim, type Md5Anim } from '../loaders/md5/parse-md5-anim.ts';
import { parseMd5Mesh } from '../loaders/md5/parse-md5-mesh.ts';
import { md5ToModelAsset } from '../loaders/md5/md5-to-model-asset.ts';
import { MD5_IMAGE_EXTENSIONS, md5ShaderImageCandidates, resolveMd5ShaderImage } from '../loaders/md5/md5-shader-images.ts';
import type { SourceFile } from './model-source.ts';
import { MissingFileError } from './missing-file-error.ts';

/**
 * The viewer's MD5 source (registered for `.md5mesh` in `modelParsers`): parses the mesh and its
 * animations and images with the MD5 loader, in the browser.
 *
 * - Dropped or picked files: every `.md5anim` among them becomes a clip (named after its file), and each
 *   mesh shader's image is looked up among them (`resolveMd5ShaderImage`).
 * - A URL: the `.md5anim` among `companionNames` (an explicit anim URL), else `<name>.md5anim` next to
 *   `<name>.md5mesh` when there (the model has no clip when it is not, with a warning); each shader's image
 *   candidates are tried next to the mesh.
 *
 * Images are looked up among the companions when there are companions besides `.md5anim` files (a drop),
 * otherwise fetched by candidate name.
 *
 * @throws the loader's ParseError (`Bob.md5mesh:212: …`) for a malformed mesh or an anim that does not fit
 */
export async function parseMd5Source(
  main: SourceFile,
  fetchCompanion: (uri: string) => Promise<Uint8Array>,
  companionNames: readonly string[],
): Promise<ModelAsset> {
  const decoder = new TextDecoder();
  const mesh = parseMd5Mesh(main.name, decoder.decode(main.bytes));
  const extraWarnings: string[] = [];

  const anims: Md5Anim[] = [];
  const animNames = companionNames.filter((n) => n.toLowerCase().endsWith('.md5anim'));
  if (animNames.length > 0) {
    for (const name of animNames) anims.push(parseMd5Anim(name, decoder.decode(await fetchCompanion(name))));
  } else {
    const conventional = main.name.replace(/\.md5mesh$/i, '.md5anim');
    let text: string | null = null;
    try {
      text = decoder.decode(await fetchCompanion(conventional));
    } catch (error) {
      if (!(error instanceof MissingFileError)) throw error;
      extraWarnings.push(`${main.name}: no ${conventional} next to it; showing the bind pose`);
    }
    if (text !== null) anims.push(parseMd5Anim(conventional, text));
  }

  const images: Record<string, Uint8Array> = {};
  const imagesAmongCompanions = companionNames.length > animNames.length;
  for (const part of mesh.meshes) {
    if (imagesAmongCompanions) {
      const name = resolveMd5ShaderImage(part.shader, companionNames);
      if (name !== null && !(name in images)) images[name] = await fetchCompanion(name);
      continue;
    }
    if (resolveMd5ShaderImage(part.shader, Object.keys(images)) !== null) continue;
    search: for (const candidate of md5ShaderImageCandidates(part.shader)) {
      for (const ext of MD5_IMAGE_EXTENSIONS) {
        try {
          images[candidate + ext] = await fetchCompanion(candidate + ext);
          break search;
        } catch (error) {
          if (!(error instanceof MissingFileError)) throw error; // only an absent file means "try the next name"
        }
      }
    }
  }

  const asset = md5ToModelAsset(mesh, anims[0] ?? null, main.name, images);
  // One clip per anim: the skeleton comes from the mesh, so every conversion orders joints the same way.
  const clips = [...asset.clips];
  for (let i = 1; i < anims.length; i++) clips.push(...md5ToModelAsset(mesh, anims[i], main.name, images).clips);
  if (clips.length === asset.clips.length && extraWarnings.length === 0) return asset;
  return { ...asset, clips, warnings: [...asset.warnings, ...extraWarnings] };
}
