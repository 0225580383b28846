import type { ModelAsset } from '../../../src/asset/model-asset.ts';

/**
 * A copy of `asset` with one more clip, "bend" (1 s, LINEAR): every skin joint turns from its rest rotation
 * to rest · (35° + 10°·(j mod 4) about the unit axis (1, j mod 3, 1)/‖·‖), j the skeleton joint index. For
 * models whose own clips leave the skin at rest (quad_skin.glb has none), so parity sees distinct joint
 * matrices mixed by every influence.
 */
export function withBendClip(asset: ModelAsset): ModelAsset {
  const joints = new Set<number>();
  for (const skin of asset.skins) for (const j of skin.joints) joints.add(j);
  const rest = asset.restPose.rotations;
  const channels = [...joints].map((j) => {
    const angle = ((35 + 10 * (j % 4)) * Math.PI) / 180;
    const ax = 1, ay = j % 3, az = 1, len = Math.hypot(ax, ay, az);
    const s = Math.sin(angle / 2) / len;
    const [dx, dy, dz, dw] = [ax * s, ay * s, az * s, Math.cos(angle / 2)];
    const [x, y, z, w] = [rest[4 * j], rest[4 * j + 1], rest[4 * j + 2], rest[4 * j + 3]];
    // rest · delta (Hamilton product, (x, y, z, w) order)
    const turned = [
      w * dx + x * dw + y * dz - z * dy,
      w * dy - x * dz + y * dw + z * dx,
      w * dz + x * dy - y * dx + z * dw,
      w * dw - x * dx - y * dy - z * dz,
    ];
    return {
      joint: j, path: 'rotation' as const, interpolation: 'LINEAR' as const,
      times: new Float32Array([0, 1]), values: new Float32Array([x, y, z, w, ...turned]),
    };
  });
  return { ...asset, name: `${asset.name}, bend clip`, clips: [...asset.clips, { name: 'bend', duration: 1, channels }] };
}
