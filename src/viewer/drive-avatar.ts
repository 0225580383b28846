import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { loadModelFromFiles } from '../loaders/fetch/load-model-from-files.ts';
import { loadClips } from '../loaders/load-clips.ts';
import { retargetClipLibrary } from '../loaders/clip-library.ts';
import { LOCOMOTION_CLIPS } from '../procedural/avatar/avatar-locomotion.ts';
import { buildLocomotionVrma } from '../procedural/avatar/locomotion-vrma.ts';
import { generatedAvatarFile } from './generated-avatar-sample.ts';

/** The Drive panel's model: its name (`ModelAsset.name`), so the panel knows it is shown. */
export const DRIVE_AVATAR_NAME = 'drive-avatar.vrm';

/**
 * The Drive panel's character, made in the page (nothing is fetched): the generated VRM avatar
 * (`generatedAvatarFile`) with the locomotion clips `Idle`, `Walk`, `Run` and `Jump` (`buildLocomotionVrma`, read as
 * `.vrma` files and retargeted onto it by humanoid bone, markers kept) as its clips, named {@link DRIVE_AVATAR_NAME}.
 * @throws LoadError from the loaders (none expected: every file is generated)
 */
export async function driveAvatarAsset(): Promise<ModelAsset> {
  const asset = await loadModelFromFiles([await generatedAvatarFile('vrm-avatar')]);
  const clips: AnimationClip[] = [];
  const none = async (): Promise<null> => null;
  for (const name of LOCOMOTION_CLIPS) {
    const library = await loadClips({ name: `${name.toLowerCase()}.vrma`, bytes: await buildLocomotionVrma(name) }, none);
    clips.push(...retargetClipLibrary(library, asset).clips);
  }
  return { ...asset, name: DRIVE_AVATAR_NAME, clips };
}
