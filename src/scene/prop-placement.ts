import { mat4 } from 'gl-matrix';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { AnimatedModel } from './animated-model.ts';

/**
 * Where a prop held by a joint stands: `out = character.world · T(O) · Mⱼ · offset` (`AnimatedModel.jointMatrix`
 * composed with the offset; docs/explanation/skinning-formulas.md S4 for Mⱼ), the prop's model space → the character's world
 * space (a view's display space, where the view sets `world` to its display matrix). Allocates nothing.
 * @param joint a skeleton joint index of `character` (resolve a name once with `jointIndex`)
 * @param offset `Float64Array(16)`, column-major: the prop's model space → the joint's frame (the character's
 *   units: metres for glTF)
 * @param out `Float64Array(16)`, column-major; written and returned (may not be `offset`)
 * @throws RangeError when there is no such joint
 */
export function propMatrix(character: AnimatedModel, joint: number, offset: Float64Array, out: Float64Array): Float64Array {
  character.jointMatrix(joint, out);
  // gl-matrix reads each column of the left factor before writing, so `out` may be that factor.
  mat4.multiply(out as unknown as mat4, out as unknown as mat4, offset as unknown as mat4);
  return out;
}

/**
 * Splits a prop's f64 display matrix D (model space → display space) for a float32 draw without losing its
 * translation t to float32 rounding far from the origin: `outDisplay` gets D's linear part L with no translation,
 * `outOrigin` = O + L⁻¹·t (f64), so that the renderer's origin fold (`s = L·origin`, computed in f64,
 * `SkinnedRenderer.draw`) adds back exactly L·O + t, the part of D·(O + p) that is large. `p` (positions
 * relative to the prop's origin O) stays the prop's own size. When L is singular (an offset scaled to 0) D is
 * kept whole and `outOrigin` = O. Allocates nothing.
 * @param display `Float64Array(16)`, column-major
 * @param origin `Float64Array(3)`: the prop's model origin O (`AnimatedModel.origin`)
 * @param outDisplay `Float32Array(16)`, column-major
 * @param outOrigin `Float64Array(3)`
 * @returns whether the translation went into `outOrigin`
 */
export function splitDisplayTranslation(display: Float64Array, origin: Float64Array, outDisplay: Float32Array, outOrigin: Float64Array): boolean {
  const a = display[0], b = display[1], c = display[2];
  const d = display[4], e = display[5], f = display[6];
  const g = display[8], h = display[9], i = display[10];
  // Cofactors of L (columns (a b c), (d e f), (g h i)): L⁻¹ = adj(L) / det.
  const A = e * i - f * h, B = f * g - d * i, C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const scale = Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d) + Math.abs(e) + Math.abs(f) + Math.abs(g) + Math.abs(h) + Math.abs(i);
  for (let k = 0; k < 16; k++) outDisplay[k] = display[k];
  if (!(Math.abs(det) > 1e-12 * scale * scale * scale) || display[3] !== 0 || display[7] !== 0 || display[11] !== 0 || display[15] !== 1) {
    outOrigin[0] = origin[0]; outOrigin[1] = origin[1]; outOrigin[2] = origin[2];
    return false;
  }
  const tx = display[12], ty = display[13], tz = display[14];
  // Rows of adj(L) are (A, B, C), (c·h − b·i, a·i − c·g, b·g − a·h), (b·f − c·e, c·d − a·f, a·e − b·d).
  outOrigin[0] = origin[0] + (A * tx + B * ty + C * tz) / det;
  outOrigin[1] = origin[1] + ((c * h - b * i) * tx + (a * i - c * g) * ty + (b * g - a * h) * tz) / det;
  outOrigin[2] = origin[2] + ((b * f - c * e) * tx + (c * d - a * f) * ty + (a * e - b * d) * tz) / det;
  outDisplay[12] = 0; outDisplay[13] = 0; outDisplay[14] = 0;
  return true;
}

/**
 * The joint a prop goes on when none is selected: a right hand (a name with `hand` and a right-side mark:
 * `hand_R`, `RightHand`, `mixamorig:RightHand`, `Hand.R`), else any hand, else the joint deepest in the
 * hierarchy (a tentacle tip, a tail's end); −1 for an empty skeleton.
 */
export function defaultPropJoint(skeleton: Skeleton): number {
  const names = skeleton.names;
  const right = /(^|[^a-z])r([^a-z]|$)|right/i;
  const hand = names.findIndex((n) => /hand/i.test(n) && right.test(n.replace(/hand/i, ' ')));
  if (hand >= 0) return hand;
  const anyHand = names.findIndex((n) => /hand/i.test(n));
  if (anyHand >= 0) return anyHand;
  let deepest = -1, most = -1;
  const depth = new Int32Array(skeleton.jointCount);
  for (let j = 0; j < skeleton.jointCount; j++) {
    depth[j] = skeleton.parents[j] >= 0 ? depth[skeleton.parents[j]] + 1 : 0;
    if (depth[j] > most) { most = depth[j]; deepest = j; }
  }
  return deepest;
}

/**
 * An offset for the built-in sword (`createSwordAsset(length)`) on `joint`: a uniform scale s making it about half
 * as long as the span of `character`'s joints in its current pose (0.9 m on a 1.8 m person), whatever the model's
 * units and the joint's own scale: `s = 0.5·span / (length · |joint's x column|)`; 1 when the span or the joint's
 * scale is 0.
 * @param joint a skeleton joint index of `character`
 * @returns `Float64Array(16)`, column-major: `S(s)`
 */
export function swordOffset(character: AnimatedModel, joint: number, length = 0.9): Float64Array {
  const m = character.modelMatrices, n = character.asset.skeleton.jointCount;
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < n; j++) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], m[16 * j + 12 + k]);
      max[k] = Math.max(max[k], m[16 * j + 12 + k]);
    }
  }
  const span = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const jointScale = Math.hypot(m[16 * joint], m[16 * joint + 1], m[16 * joint + 2]);
  const s = span > 0 && jointScale > 0 ? (0.5 * span) / (length * jointScale) : 1;
  return Float64Array.of(s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1);
}
