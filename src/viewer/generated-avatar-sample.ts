import { modelFormatOf } from '../loaders/load-model.ts';
import { buildAvatarVrm1 } from '../procedural/avatar/avatar-vrm1.ts';
import { GENERATED_AVATAR_NAMES, type GeneratedAvatarKind } from './sample-models.ts';

/**
 * The viewer's generated avatar samples: the generated VRM 1.0 avatar ({@link buildAvatarVrm1}, bone look-at,
 * with its textures), `vrm-avatar` with glTF PBR materials ("VRM avatar (generated)"), `vrm-avatar-toon` in MToon
 * with outlines ("VRM avatar, toon (generated)", `mtoon: true`), built in the page into a file, so nothing is
 * served or committed. The file is named `generated-avatar(-toon).vrm` once the loaders read `.vrm`; until then
 * `.glb`, which opens it as a plain glTF (its VRM extension ignored with a warning).
 */
export async function generatedAvatarFile(kind: GeneratedAvatarKind = 'vrm-avatar'): Promise<File> {
  const base = GENERATED_AVATAR_NAMES[kind];
  const name = `${base}.${modelFormatOf(`${base}.vrm`) !== null ? 'vrm' : 'glb'}`;
  return new File([await buildAvatarVrm1({ mtoon: kind === 'vrm-avatar-toon' })], name, { type: 'model/gltf-binary' });
}
