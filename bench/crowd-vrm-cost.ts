/**
 * A crowd of avatars with spring bones (issue 34; docs/guide/crowds.md "Spring bones"), in node:
 *
 * - `crowd.vrm.N1000.cpu_ms`: one frame — `Crowd.update(1/60)` + `Crowd.prepare(view)` as bench/crowd-cost.ts
 *   times a crowd frame — of 1 000 live instances of the generated VRM 1.0 avatar (`buildAvatarVrm1`: its spring
 *   chains, colliders of every shape and node constraints) playing the generated VRMA walk retargeted onto it,
 *   each with its own springs, laid out on a grid with staggered times; ms (target ≤ 8).
 * - `crowd.vrm.N1000.cpu_ms.no_springs`: the same frame with the springs off (`springs.simulator.enabled`),
 *   the constraints still on: what the springs add is the difference.
 *
 * Run alone: `node --import tsx bench/crowd-vrm-cost.ts`.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Crowd } from '../src/crowd/crowd.ts';
import { loadModel } from '../src/loaders/load-model.ts';
import { loadClips } from '../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../src/loaders/clip-library.ts';
import { buildAvatarVrm1 } from '../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../src/procedural/avatar/vrma-clip.ts';
import type { ModelAsset } from '../src/asset/model-asset.ts';
import { compare } from './harness.ts';

const DT = 1 / 60;
/** An orthographic view volume of ±10 000 units: every instance is in view, and each is still tested. */
const VIEW = [1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1];

/** The generated avatar with the generated walk retargeted onto it. */
export async function walkingAvatar(): Promise<ModelAsset> {
  const none = async (): Promise<null> => null;
  const model = await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1({ texture: false }) }, none);
  const library = await loadClips({ name: 'walk.vrma', bytes: await buildVrmaClip({ duration: 3 }) }, none);
  return { ...model, clips: retargetClipLibrary(library, model).clips };
}

/** `count` live instances on a grid 1.5 m apart, staggered times and speeds, springs settled for 10 frames. */
function avatarCrowd(avatar: ModelAsset, count: number): Crowd {
  const crowd = new Crowd(avatar, { capacity: count });
  const columns = Math.ceil(Math.sqrt(count)), w = new Float32Array(16), duration = crowd.model.clips[0].duration;
  w[0] = w[5] = w[10] = w[15] = 1;
  for (let i = 0; i < count; i++) {
    w[12] = 1.5 * (i % columns);
    w[14] = 1.5 * Math.floor(i / columns);
    const golden = (i * 0.618034) % 1;
    crowd.add(0, duration * golden, 0.8 + 0.4 * golden, w);
  }
  for (let f = 0; f < 10; f++) { crowd.update(DT); crowd.prepare(VIEW); }
  return crowd;
}

/** The figures above (ms), and table rows for run-bench. */
export async function crowdVrmCost(rounds = 8): Promise<{ rows: string[][]; figures: Record<string, number> }> {
  const avatar = await walkingAvatar();
  const N = 1000;
  const springs = avatarCrowd(avatar, N), still = avatarCrowd(avatar, N);
  still.springs!.simulator.enabled = false;
  const frame = (crowd: Crowd) => () => { crowd.update(DT); crowd.prepare(VIEW); };
  const [on, off] = compare([{ name: 'springs', fn: frame(springs) }, { name: 'no_springs', fn: frame(still) }], { rounds, batchMs: 60, warmupMs: 500 });
  const ms = (x: number) => Math.round(x / 1e4) / 100;
  const figures: Record<string, number> = {
    'crowd.vrm.N1000.cpu_ms': ms(on.nsPerOp),
    'crowd.vrm.N1000.cpu_ms.no_springs': ms(off.nsPerOp),
  };
  const J = avatar.skeleton.jointCount;
  const rows = [
    [`crowd CPU frame: generated avatar ${J} joints, N = ${N}, live, springs`, `${(on.nsPerOp / 1e6).toFixed(2)} ms`, '', '', `${(on.nsPerOp / N / 1000).toFixed(1)} µs per instance`],
    [`crowd CPU frame: generated avatar ${J} joints, N = ${N}, live, springs off`, `${(off.nsPerOp / 1e6).toFixed(2)} ms`, '', '', `${(off.nsPerOp / N / 1000).toFixed(1)} µs per instance`],
  ];
  return { rows, figures };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows, figures } = await crowdVrmCost();
  for (const row of rows) console.log(row.filter(Boolean).join('  '));
  console.log(JSON.stringify(figures), 'load average', os.loadavg().map((x) => x.toFixed(2)).join(' '));
}
