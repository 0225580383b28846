/**
 * The second reference comparison: expressions on the generated avatars (VRM 1.0 and 0.x) give three-vrm's
 * skinned vertices within 1e-4 of the bounding box's diagonal, in the rest pose, at weights that exercise a plain
 * weight, the overrides (VRMC_vrm-1.0 `expressions.md`: `happy` blends mouth and blink away, `angry` blocks blink,
 * `surprised` blocks all three) and `isBinary` (`blink` rounds at 0.5); the `angry` colour bind reaches the cheek
 * material's base colour on both sides.
 * three: `expressionManager.setValue`, then `vrm.update(0)`. Sinew: `AvatarController.setExpression`, then
 * `AnimatedModel.evaluate` of the rest pose.
 */
import { describe, expect, it } from 'vitest';
import type { MeshStandardMaterial } from 'three';
import { colorTargetIndex, COLOR_FLOATS_PER_MATERIAL } from '../../../src/avatar/material-values.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { avatarBytes, diagonalOf, loadSinew, loadThreeVrm, sinewPositions, threePositions, worstError } from './three-vrm-reference.ts';

/** Each case: the input weights set, everything else 0. */
const CASES: readonly { readonly name: string; readonly weights: Readonly<Record<string, number>> }[] = [
  { name: 'blink 0.3 (binary: rounds to closed-or-open) and ou 0.45', weights: { blink: 0.3, ou: 0.45 } },
  { name: 'aa 0.7 + happy 1 (happy blends the mouth and blink away)', weights: { aa: 0.7, happy: 1, blink: 1 } },
  { name: 'blink 0.7 (binary) + angry 0.6 (blocks blink) + cheekPuff 0.5', weights: { blink: 0.7, angry: 0.6, cheekPuff: 0.5 } },
  { name: 'surprised 0.4 (blocks mouth, blink, look-at) + aa 1 + blinkLeft 0.8', weights: { surprised: 0.4, aa: 1, blinkLeft: 0.8 } },
];

describe('expressions on the generated avatar: Sinew against three-vrm', () => {
  for (const version of ['1', '0'] as const) {
    it(`VRM ${version === '1' ? '1.0' : '0.x'}: skinned vertices within 1e-4 of the diagonal for ${CASES.length} sets of weights, and the cheek colour`, async () => {
      const bytes = await avatarBytes(version);
      const asset = await loadSinew(bytes);
      const animated = new AnimatedModel(asset);
      const avatar = animated.avatar!;
      const rest = sinewPositions(asset, animated);
      const diagonal = diagonalOf(rest);
      const three = await loadThreeVrm(bytes);
      const manager = three.vrm.expressionManager!;
      const names = avatar.expressions.expressions.map((e) => e.name);
      expect(names.sort()).toEqual(manager.expressions.map((e) => e.expressionName).sort());
      const cheek = asset.materials.findIndex((m) => m.name === 'Cheek');
      let threeCheek: MeshStandardMaterial | undefined;
      three.vrm.scene.traverse((o) => {
        const m = (o as { material?: MeshStandardMaterial }).material;
        if (m?.name === 'Cheek') threeCheek = m;
      });

      const report: string[] = [];
      for (const { name, weights } of CASES) {
        for (const n of names) {
          avatar.setExpression(n, weights[n] ?? 0);
          manager.setValue(n, weights[n] ?? 0);
        }
        three.vrm.update(0);
        animated.evaluate(animated.clipSample(-1));
        const ours = sinewPositions(asset, animated);
        const error = worstError(ours, threePositions(three), diagonal);
        const moved = worstError(ours, rest, diagonal);
        report.push(`${name}: ${error.toExponential(2)} (moved ${moved.toExponential(1)})`);
        // Each case moves the face by more than the tolerance, so a wrong override or rounding would show.
        expect(moved, name).toBeGreaterThan(1e-3);
        expect(error, name).toBeLessThan(1e-4);
        const c = avatar.materialValues.colors, o = cheek * COLOR_FLOATS_PER_MATERIAL + 4 * colorTargetIndex('color');
        expect(c[o], name).toBeCloseTo(threeCheek!.color.r, 5);
        expect(c[o + 1], name).toBeCloseTo(threeCheek!.color.g, 5);
        expect(c[o + 2], name).toBeCloseTo(threeCheek!.color.b, 5);
      }
      console.log(`expressions, VRM ${version}, worst error in diagonals:\n  ${report.join('\n  ')}`);
    });
  }
});
