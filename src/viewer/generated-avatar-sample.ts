import { modelFormatOf } from '../loaders/load-model.ts';
import { buildAvatarVrm1 } from '../procedural/avatar/avatar-vrm1.ts';
import { GENERATED_AVATAR_NAME } from './sample-models.ts';

/**
 * The viewer's "VRM avatar (generated)" sample: the generated VRM 1.0 avatar ({@link buildAvatarVrm1}, bone
 * look-at, with its cheek texture) built in the page into a file, so nothing is served or committed. The file is
 * named `generated-avatar.vrm` once the loaders read `.vrm`; until then `generated-avatar.glb`, which opens it as a
 * plain glTF (its VRM extension ignored with a warning).
 */
export async function generatedAvatarFile(): Promise<File> {
  const name = `${GENERATED_AVATAR_NAME}.${modelFormatOf(`${GENERATED_AVATAR_NAME}.vrm`) !== null ? 'vrm' : 'glb'}`;
  return new File([await buildAvatarVrm1()], name, { type: 'model/gltf-binary' });
}
