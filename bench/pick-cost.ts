/**
 * Picking costs for `npm run bench` (bench/run-bench.ts): one `pickModel` against skinning the whole mesh on
 * the CPU (`skinVertices`, positions only: the least a brute-force pick would do), on Fox and on a generated
 * 30 000-vertex character (the worm of src/procedural/worm.ts built with 1 500 rings of 20 vertices on 64
 * joints), each posed mid-clip. Rays come from all round the model, aimed at random posed vertices (most hit,
 * a few graze), cycling through 64 of them.
 *
 * Keys: `pick.fox_us`, `pick.fox_over_skin` (one pick / skinning the whole Fox mesh), `pick.30k_us`,
 * `pick.30k_over_skin`, `pick.fox_dqs_us` and `pick.fox_dqs_over_skin_dqs` (the same pick under DQS, whose bound
 * is looser, over skinning the whole mesh by DQS), and
 * `pick.bytes_allocated_per_pick` (Fox, heap growth per pick over 10 000 picks, bench/harness.ts).
 */
import type { ModelAsset } from '../src/asset/model-asset.ts';
import { createWorm } from '../src/procedural/worm.ts';
import { AnimatedModel } from '../src/scene/animated-model.ts';
import { createRay, createSurfaceHit, PickContext, pickModel, type Ray } from '../src/scene/pick-model.ts';
import { skinVertices } from '../src/skinning/skin-vertices.ts';
import { allocationPerCall, compare, formatNs } from './harness.ts';

/** 30 000 vertices on 64 joints: the generated character of `pick.30k_*`. */
export const WORM_30K = { joints: 64, rings: 1500, sides: 20 } as const;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** `count` world-space rays at random posed vertices of the (skinned) first primitive, from a sphere round the model. */
function aimedRays(model: AnimatedModel, count: number): Ray[] {
  const { asset } = model;
  const instance = asset.meshInstances.find((i) => i.skin >= 0)!;
  const primitive = asset.meshes[instance.mesh].primitives[0];
  const posed = new Float32Array(3 * primitive.vertexCount);
  skinVertices(posed, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < posed.length; i++) { lo[i % 3] = Math.min(lo[i % 3], posed[i]); hi[i % 3] = Math.max(hi[i % 3], posed[i]); }
  const centre = lo.map((x, k) => 0.5 * (x + hi[k])), size = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const rnd = random(3), rays: Ray[] = [];
  for (let r = 0; r < count; r++) {
    const ray = createRay(), v = Math.floor(rnd() * primitive.vertexCount);
    const u = 2 * rnd() - 1, phi = 2 * Math.PI * rnd(), s = Math.sqrt(1 - u * u), dir = [s * Math.cos(phi), s * Math.sin(phi), u];
    for (let k = 0; k < 3; k++) {
      ray.origin[k] = centre[k] + 1.5 * size * dir[k] + model.origin[k];
      ray.direction[k] = posed[3 * v + k] + model.origin[k] - ray.origin[k];
    }
    rays.push(ray);
  }
  return rays;
}

export interface PickCostResult {
  readonly rows: string[][];
  readonly figures: Record<string, number>;
}

/** Times one pick against whole-mesh skinning on each character; Fox is skipped when `fox` is null. */
export async function pickCost(fox: ModelAsset | null, gc: () => void): Promise<PickCostResult> {
  const rows: string[][] = [], figures: Record<string, number> = {};
  const cases: [string, string, ModelAsset][] = [];
  if (fox) cases.push(['fox', 'Fox', fox]);
  cases.push(['30k', `worm ${WORM_30K.rings * WORM_30K.sides} vertices, ${WORM_30K.joints} joints`, createWorm(WORM_30K)]);
  for (const [key, name, asset] of cases) {
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(0).at(0.45 * asset.clips[0].duration));
    const context = new PickContext(model), hit = createSurfaceHit(), rays = aimedRays(model, 64);
    const instance = asset.meshInstances.find((i) => i.skin >= 0)!;
    const primitive = asset.meshes[instance.mesh].primitives[0];
    const out = new Float32Array(3 * primitive.vertexCount);
    let next = 0, hits = 0;
    const pick = () => { if (pickModel(model, rays[next++ & 63], hit, context)) hits++; };
    const dqs = { skinning: 'dqs', weights: 'normalize' } as const;
    const pickDqs = () => { pickModel(model, rays[next++ & 63], hit, context, dqs); };
    const skin = () => skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
    const skinDqs = () => skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin], dqs);
    const [p, s, d, sd] = compare([
      { name: 'pick', fn: pick }, { name: 'skin whole mesh', fn: skin }, { name: 'pick dqs', fn: pickDqs }, { name: 'skin whole mesh dqs', fn: skinDqs },
    ], { warmupMs: 200, batchMs: 5, rounds: 30 });
    const label = `pick: ${name} (${primitive.vertexCount} vertices), one ray / skinning every vertex`;
    rows.push([label, formatNs(p.nsPerOp), `skin ${formatNs(s.nsPerOp)}`, `${(p.nsPerOp / s.nsPerOp).toFixed(2)}`, `${hits > 0 ? 'hits' : 'NO HITS'}`]);
    rows.push([`  the same pick under DQS / skinning every vertex by DQS`, formatNs(d.nsPerOp), `skin ${formatNs(sd.nsPerOp)}`, `${(d.nsPerOp / sd.nsPerOp).toFixed(2)}`, '']);
    figures[`pick.${key}_us`] = Math.round(p.nsPerOp / 10) / 100;
    figures[`pick.${key}_over_skin`] = Math.round((100 * p.nsPerOp) / s.nsPerOp) / 100;
    if (key === 'fox') {
      figures['pick.fox_dqs_us'] = Math.round(d.nsPerOp / 10) / 100;
      figures['pick.fox_dqs_over_skin_dqs'] = Math.round((100 * d.nsPerOp) / sd.nsPerOp) / 100;
      const alloc = await allocationPerCall(pick, 10_000, gc);
      figures['pick.bytes_allocated_per_pick'] = Math.round(alloc.allocated * 100) / 100;
      rows.push([`  heap allocated per pick: Fox, 10 000 picks (GCs during: ${alloc.gcDuring})`, `${alloc.allocated.toFixed(2)} B`, '', '', '']);
    }
  }
  return { rows, figures };
}
