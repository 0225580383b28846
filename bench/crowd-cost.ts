/**
 * The crowd's CPU side (issue 24; docs/guide/crowds.md), in node, on the crowd bench's characters made in code:
 *
 * - `crowd.cpu.ns_per_instance_joint.N{1000,10000}.{live,live_js,baked}`: one frame's `Crowd.update` +
 *   `Crowd.prepare` (time, poses or frame picks, bounds, culling against a view volume holding every instance,
 *   packing) per instance and joint, on the 16-joint worm (`WORM_800`) laid out as `CrowdStage.setCount` lays
 *   it out; `live` the crowd kernel (`CrowdKernel`, every instance in one call), `live_js` the same crowd posed
 *   one by one (`backend: 'js'`), `baked` the baked frames. `crowd.cpu.us_per_live_instance.N1000`: the live
 *   frame per instance (target ≤ 0.3 µs); `crowd.cpu.kernel_speedup_over_js.N1000`.
 * - `crowd.bounds_ms.100x100`: the skinned bounds of 100 characters of 100 joints in one frame — the crowd
 *   kernel's `animate` with every joint's box against the same call with none (the difference is the bounds'
 *   cost, timed alternately, fastest batches); `crowd.bounds_ms.100x100.js` the portable `accumulateSkinBounds`
 *   100 times.
 * - Memory: `crowd.bytes_per_instance` (what a `Crowd` holds per instance of its capacity, kernel included, in
 *   either mode), `crowd.upload_bytes_per_instance.{live,baked}` (its block, uploaded per drawn instance per
 *   frame), `crowd.bytes_per_clip_second.{compiled,baked}` (the clips' key streams in the kernel's memory, and
 *   the baked palette frames at 30 frames per second, per second of clip).
 *
 * Run alone: `node --import tsx bench/crowd-cost.ts`.
 */
import { Crowd, crowdInstanceBytes } from '../src/crowd/crowd.ts';
import { createCrowdKernel, crowdKernelInstanceBytes } from '../src/crowd/crowd-kernel.ts';
import { createWorm, WORM_800 } from '../src/procedural/worm.ts';
import { accumulateSkinBounds, emptyBox } from '../src/skinning/joint-bounds.ts';
import { BAKED_BLOCK_TEXELS } from '../src/skinning/instance-blocks.ts';
import { compare } from './harness.ts';

const DT = 1 / 60;
/** An orthographic view volume of ±10 000 units: every instance is in view, and each is still tested. */
const VIEW = [1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1];

/** A crowd of `count` worms laid out as the crowd page lays them out (grid, clip i mod clips, staggered times). */
function wormCrowd(count: number, options: { backend?: 'auto' | 'js'; joints?: number } = {}): Crowd {
  const worm = createWorm(options.joints ? { joints: options.joints, rings: 2 * options.joints, sides: 8 } : WORM_800);
  const crowd = new Crowd(worm, { capacity: count, backend: options.backend });
  const columns = Math.ceil(Math.sqrt(count)), clips = crowd.model.clips, w = new Float32Array(16);
  w[0] = w[5] = w[10] = w[15] = 1;
  for (let i = 0; i < count; i++) {
    w[12] = 3 * (i % columns);
    w[14] = 3 * Math.floor(i / columns);
    const clip = i % clips.length, golden = (i * 0.618034) % 1;
    crowd.add(clip, clips[clip].duration * golden, 0.8 + 0.4 * golden, w);
  }
  return crowd;
}

export interface CrowdCost {
  readonly figures: Record<string, number>;
  readonly rows: string[][];
}

/** The figures above (see the file's comment). */
export function crowdCost(): CrowdCost {
  const figures: Record<string, number> = {}, rows: string[][] = [];
  const round = (x: number) => Math.round(x * 100) / 100;
  for (const N of [1000, 10_000]) {
    const live = wormCrowd(N), js = wormCrowd(N, { backend: 'js' }), baked = wormCrowd(N);
    baked.mode = 'baked';
    baked.bakedClipsOrBake();
    const J = live.asset.skeleton.jointCount;
    const frame = (crowd: Crowd) => () => { crowd.update(DT); crowd.prepare(VIEW); };
    const rounds = N > 1000 ? 8 : 20;
    const [l, p, b] = compare([{ name: 'live', fn: frame(live) }, { name: 'live_js', fn: frame(js) }, { name: 'baked', fn: frame(baked) }], { rounds, batchMs: N > 1000 ? 40 : 15 });
    for (const m of [l, p, b]) {
      figures[`crowd.cpu.ns_per_instance_joint.N${N}.${m.name}`] = round(m.nsPerOp / (N * J));
      rows.push([`crowd CPU frame: worm ${J} joints, N = ${N}, ${m.name}`, `${(m.nsPerOp / 1e6).toFixed(3)} ms`, '', '', `${(m.nsPerOp / N / 1000).toFixed(3)} µs per instance`]);
    }
    if (N === 1000) {
      figures['crowd.cpu.us_per_live_instance.N1000'] = Math.round(l.nsPerOp / N) / 1000;
      figures['crowd.cpu.kernel_speedup_over_js.N1000'] = round(p.nsPerOp / l.nsPerOp);
    }
  }

  // Bounds: 100 characters × 100 joints, the kernel's boxes against none.
  const big = wormCrowd(100, { joints: 100 });
  const kernel = big.kernel!, source = { asset: big.asset, clips: big.model.clips, origin: big.origin, layout: big.poseLayout, rigidBoxes: big.rigidBoxes };
  const unbounded = createCrowdKernel({ ...source, jointBounds: big.jointBounds.map((b) => ({ boxes: new Float32Array(b.boxes.length).fill(NaN), rest: b.rest })) }, 100, big.blocks.length)!;
  unbounded.clipIndices.set(kernel.clipIndices);
  unbounded.times.set(kernel.times);
  unbounded.worlds.set(kernel.worlds);
  const box = new Float64Array(6), skin = big.model.skinMatrices[0], counts = new Int32Array(2), texels = big.blockTexels;
  const [withBounds, without, portable] = compare([
    { name: 'bounds', fn: () => kernel.animate(100, VIEW, texels, 3, counts) },
    { name: 'none', fn: () => unbounded.animate(100, VIEW, texels, 3, counts) },
    { name: 'js', fn: () => { for (let k = 0; k < 100; k++) { emptyBox(box); accumulateSkinBounds(box, big.jointBounds[0], skin, big.origin); } } },
  ], { rounds: 60 });
  // A difference of two close times: taken between the fastest batches (the least preempted), steadier than medians.
  figures['crowd.bounds_ms.100x100'] = Math.max(0, Math.round((withBounds.minNsPerOp - without.minNsPerOp) / 1e3) / 1e3);
  figures['crowd.bounds_ms.100x100.js'] = Math.round(portable.minNsPerOp / 1e3) / 1e3;
  rows.push(['skinned bounds: 100 characters × 100 joints per frame (kernel; portable)', `${figures['crowd.bounds_ms.100x100'].toFixed(3)} ms`, '', '', `portable ${figures['crowd.bounds_ms.100x100.js'].toFixed(3)} ms`]);

  // Memory per instance and per clip second.
  const worm = wormCrowd(1);
  const liveTexels = worm.blockTexels;
  figures['crowd.bytes_per_instance'] = crowdInstanceBytes(Math.max(liveTexels, BAKED_BLOCK_TEXELS)) + crowdKernelInstanceBytes(worm.model.clips);
  figures['crowd.upload_bytes_per_instance.live'] = 16 * liveTexels;
  figures['crowd.upload_bytes_per_instance.baked'] = 16 * (BAKED_BLOCK_TEXELS);
  const seconds = worm.model.clips.reduce((sum, clip) => sum + clip.duration, 0);
  const streams = worm.model.clips.reduce((sum, clip) => sum + clip.vec3Stream.entries.byteLength + clip.quatStream.entries.byteLength, 0);
  const bakedRows = worm.bakedClipsOrBake().palettes;
  figures['crowd.bytes_per_clip_second.compiled'] = Math.round(streams / seconds);
  figures['crowd.bytes_per_clip_second.baked'] = Math.round((16 * bakedRows.frameTexels * bakedRows.frameCount) / seconds);
  rows.push([`crowd memory: worm, per instance; upload live / baked`, `${figures['crowd.bytes_per_instance']} B`, '', '', `${figures['crowd.upload_bytes_per_instance.live']} / ${figures['crowd.upload_bytes_per_instance.baked']} B`]);
  rows.push([`crowd memory: worm clips, per clip second: key streams / baked 30 fps`, `${figures['crowd.bytes_per_clip_second.compiled']} B`, '', '', `${figures['crowd.bytes_per_clip_second.baked']} B`]);
  return { figures, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { figures, rows } = crowdCost();
  for (const row of rows) console.log(row.filter(Boolean).join(' | '));
  console.log(figures);
}
