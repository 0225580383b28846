import type { ModelAsset } from './model-asset.ts';

/**
 * Nodes a model's own animation moves, `Uint8Array(jointCount)` (1 = moves): every clip channel's target
 * (`weights` channels move no node) and every skin joint (pose jobs such as inverse kinematics turn joints).
 * The others keep their rest transform relative to their parent, so their model-space matrices change only
 * with an ancestor's (docs/guide/large-scenes.md). Linear in nodes + channels + joints.
 */
export function animatedNodes(asset: ModelAsset): Uint8Array {
  const moves = new Uint8Array(asset.skeleton.jointCount);
  for (const skin of asset.skins) for (let k = 0; k < skin.joints.length; k++) moves[skin.joints[k]] = 1;
  for (const clip of asset.clips) for (const channel of clip.channels) if (channel.path !== 'weights') moves[channel.joint] = 1;
  return moves;
}

/**
 * `Int32Array`: the nodes whose model-space matrices a frame of the model's animation can change — the
 * {@link animatedNodes} and all their descendants — in increasing order (parents first).
 */
export function animatedSubtrees(asset: ModelAsset): Int32Array {
  const { parents, jointCount } = asset.skeleton;
  const moves = animatedNodes(asset);
  const list: number[] = [];
  for (let j = 0; j < jointCount; j++) {
    if (!moves[j] && parents[j] >= 0 && moves[parents[j]]) moves[j] = 1;
    if (moves[j]) list.push(j);
  }
  return Int32Array.from(list);
}
