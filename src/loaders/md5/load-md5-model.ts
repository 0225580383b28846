import { decodeMd5Text } from './decode-md5-text.ts';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { LoadError } from '../load-error.ts';
import type { FetchCompanion, ModelFile } from '../model-file.ts';
import { md5ToModelAsset } from './md5-to-model-asset.ts';
import { MD5_IMAGE_EXTENSIONS, md5ShaderImageCandidates, resolveMd5ShaderImage } from './md5-shader-images.ts';
import { parseMd5Anim, type Md5Anim } from './parse-md5-anim.ts';
import { parseMd5Mesh } from './parse-md5-mesh.ts';

/**
 * The MD5 half of `loadModel`: parses the `.md5mesh`, its anims and its shaders' images, all through
 * `fetchCompanion`, and converts them with {@link md5ToModelAsset}.
 *
 * - Anims: `anims` (each must exist), one clip each, in order; without them, `<name>.md5anim` when it exists,
 *   else no clip and the warning `Bob.md5mesh: no Bob.md5anim next to it; showing the bind pose`.
 * - Images: for each mesh shader, the candidates of `md5ShaderImageCandidates` with each of
 *   `MD5_IMAGE_EXTENSIONS`, first found wins; a shader with no image is drawn untextured.
 *
 * @throws LoadError from the MD5 parsers (`Bob.md5mesh:212: …`), for an anim that does not fit the mesh
 *   (`MD5_ANIM_MISMATCH`), for an explicit anim that does not exist (`FILE_NOT_FOUND`, about the anim), or
 *   from `fetchCompanion`
 */
export async function loadMd5Model(main: ModelFile, fetchCompanion: FetchCompanion, anims?: readonly string[]): Promise<ModelAsset> {
  const mesh = parseMd5Mesh(main.name, decodeMd5Text(main.name, main.bytes));
  const warnings: string[] = [];

  const parsedAnims: Md5Anim[] = [];
  if (anims && anims.length > 0) {
    for (const name of anims) {
      const bytes = await fetchCompanion(name);
      if (bytes === null) throw new LoadError(name, null, 'FILE_NOT_FOUND', `not found (the anim to play on ${main.name})`);
      parsedAnims.push(parseMd5Anim(name, decodeMd5Text(name, bytes)));
    }
  } else {
    const conventional = main.name.replace(/\.md5mesh$/i, '') + '.md5anim';
    const bytes = await fetchCompanion(conventional);
    if (bytes === null) warnings.push(`${main.name}: no ${conventional} next to it; showing the bind pose`);
    else parsedAnims.push(parseMd5Anim(conventional, decodeMd5Text(conventional, bytes)));
  }

  const images: Record<string, Uint8Array> = {};
  for (const part of mesh.meshes) {
    // Meshes often share a shader, or name images already found under another candidate.
    if (resolveMd5ShaderImage(part.shader, Object.keys(images)) !== null) continue;
    search: for (const candidate of md5ShaderImageCandidates(part.shader)) {
      for (const extension of MD5_IMAGE_EXTENSIONS) {
        const bytes = await fetchCompanion(candidate + extension);
        if (bytes === null) continue;
        images[candidate + extension] = bytes;
        break search;
      }
    }
  }

  const asset = md5ToModelAsset(mesh, parsedAnims[0] ?? null, main.name, images);
  // One clip per anim: the skeleton comes from the mesh, so every conversion orders joints the same way.
  const clips = [...asset.clips];
  for (let i = 1; i < parsedAnims.length; i++) clips.push(...md5ToModelAsset(mesh, parsedAnims[i], main.name, images).clips);
  if (clips.length === asset.clips.length && warnings.length === 0) return asset;
  return { ...asset, clips, warnings: [...asset.warnings, ...warnings] };
}
