import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { packInstancePose } from '../../../src/crowd/instance-pose.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';

// A live crowd of the generated avatar (its spring chains and colliders) against single AnimatedModels driven the
// same way: the same clip, start time, dt sequence and world matrix. Instance k's block must carry the single
// model's skinning rows; instances with different worlds and phases (and two at the same clip and time) catch a
// state or an evaluation shared between instances.

const none = async (): Promise<null> => null;
const DT = 1 / 60;
let avatar: ModelAsset;

beforeAll(async () => {
  const bytes = await buildAvatarVrm1({ texture: false });
  const model = await loadModel({ name: 'avatar.vrm', bytes }, none);
  const library = await loadClips({ name: 'walk.vrma', bytes: await buildVrmaClip({ duration: 3 }) }, none);
  avatar = { ...model, clips: retargetClipLibrary(library, model).clips };
  expect(avatar.secondaryMotion?.springBone?.springs.length).toBeGreaterThan(0);
});

/** A world matrix (column-major): a turn of `yaw` radians about Y, a roll of `roll` about Z, then a move. */
function worldMatrix(yaw: number, roll: number, x: number, y: number, z: number): Float32Array {
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cr = Math.cos(roll), sr = Math.sin(roll);
  // R = R_y(yaw) · R_z(roll)
  return new Float32Array([
    cy * cr, sr, -sy * cr, 0,
    -cy * sr, cr, sy * sr, 0,
    sy, 0, cy, 0,
    x, y, z, 1,
  ]);
}

/** A single avatar driven as one crowd instance: started at `time`, springs reset at its first evaluation. */
class Single {
  readonly model: AnimatedModel;
  time: number;
  constructor(readonly clip: number, time: number, world: Float32Array) {
    this.model = new AnimatedModel(avatar);
    this.model.world.set(world);
    this.model.secondaryMotion!.reset();
    this.time = time;
  }
  frame(dt: number): void {
    const duration = this.model.clips[this.clip].duration;
    this.time = (this.time + dt) % duration;
    this.model.secondaryMotion!.step(dt);
    this.model.evaluate(this.model.clipSample(this.clip).at(this.time));
  }
}

/** Instance k's pose rows as the crowd's last prepare packed them (null when it was not drawn). */
function rowsOf(crowd: Crowd, k: number): Float32Array {
  const slot = Array.from(crowd.drawnInstances.subarray(0, crowd.drawCount)).indexOf(k);
  expect(slot).toBeGreaterThanOrEqual(0);
  const texels = crowd.blockTexels, world = texels - crowd.poseLayout.texels;
  return crowd.blocks.slice(4 * (slot * texels + world), 4 * (slot + 1) * texels);
}

/** The single model's pose rows packed as a crowd block's. */
function singleRows(crowd: Crowd, single: Single): Float32Array {
  const out = new Float32Array(4 * crowd.poseLayout.texels);
  packInstancePose(out, 0, single.model, crowd.asset, crowd.poseLayout);
  return out;
}

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe('Crowd with spring bones (live)', () => {
  it('instance k equals a single avatar driven the same way, after 60 steps, for instances with different worlds and phases', () => {
    const crowd = new Crowd(avatar, { capacity: 3 });
    expect(crowd.springs).not.toBeNull();
    expect(crowd.kernel).toBeNull();
    // Node runs WebAssembly SIMD: the instances run on their blocks in the crowd's spring kernel, the singles on
    // their models' kernels with the state copied in and out.
    expect(crowd.springs!.blockAt).toBeGreaterThanOrEqual(0);
    const worlds = [worldMatrix(0, 0, 0, 0, 0), worldMatrix(1.3, 0.6, 4, 1, -2), worldMatrix(-2.1, -0.9, -3, 0, 5)];
    const starts = [0.1, 1.4, 1.4];
    const singles = worlds.map((w, k) => new Single(0, starts[k], w));
    for (let k = 0; k < 3; k++) crowd.add(0, starts[k], 1, worlds[k]);
    const dts = Array.from({ length: 60 }, (_, i) => DT * (0.75 + 0.5 * ((i * 0.618034) % 1)));
    for (const dt of dts) {
      crowd.update(dt);
      crowd.prepare(null);
      for (const single of singles) single.frame(dt);
    }
    const rows = [0, 1, 2].map((k) => rowsOf(crowd, k)), expected = singles.map((s) => singleRows(crowd, s));
    for (let k = 0; k < 3; k++) expect(maxDifference(rows[k], expected[k])).toBeLessThan(1e-5);
    // The test can fail: the springs moved each instance's joints away from its clip pose, differently per world
    // (instances 1 and 2 play the same clip at the same time), and a crowd without springs differs from them.
    expect(maxDifference(rows[1], rows[2])).toBeGreaterThan(1e-3);
    const still = new Single(0, starts[1], worlds[1]);
    still.model.secondaryMotion!.enabled = false;
    for (const dt of dts) still.frame(dt);
    expect(maxDifference(rows[1], singleRows(crowd, still))).toBeGreaterThan(1e-3);
  });

  it('evaluateInstance poses an instance with its own springs (the CPU reference of its block)', () => {
    const crowd = new Crowd(avatar, { capacity: 2 });
    crowd.add(0, 0.3, 1, worldMatrix(0.4, 0.5, 0, 0, 0));
    crowd.add(0, 0.3, 1, worldMatrix(0, 0, 0, 0, 0));
    for (let i = 0; i < 20; i++) { crowd.update(DT); crowd.prepare(null); }
    const drawn = [rowsOf(crowd, 0), rowsOf(crowd, 1)];
    for (let k = 1; k >= 0; k--) {
      crowd.evaluateInstance(k);
      const out = new Float32Array(4 * crowd.poseLayout.texels);
      packInstancePose(out, 0, crowd.model, crowd.asset, crowd.poseLayout);
      expect(maxDifference(out, drawn[k])).toBeLessThan(1e-6);
    }
  });

  it('a 1 km teleport resets the instance (finite, as a single avatar teleported alike); add resets a reused slot', () => {
    const crowd = new Crowd(avatar, { capacity: 1 });
    const near = worldMatrix(0.2, 0, 0, 0, 0), far = worldMatrix(0.2, 0, 1000, 0, 0);
    crowd.add(0, 0.5, 1, near);
    const single = new Single(0, 0.5, near);
    for (let i = 0; i < 30; i++) {
      if (i === 15) { crowd.worlds.set(far, 0); single.model.world.set(far); }
      crowd.update(DT); crowd.prepare(null); single.frame(DT);
    }
    const rows = rowsOf(crowd, 0);
    expect(rows.every(Number.isFinite)).toBe(true);
    expect(maxDifference(rows, singleRows(crowd, single))).toBeLessThan(1e-5);
    // A slot reused by add starts at rest at its new pose, as a fresh single avatar.
    crowd.count = 0;
    crowd.add(0, 2.0, 1, near);
    const fresh = new Single(0, 2.0, near);
    for (let i = 0; i < 10; i++) { crowd.update(DT); crowd.prepare(null); fresh.frame(DT); }
    expect(maxDifference(rowsOf(crowd, 0), singleRows(crowd, fresh))).toBeLessThan(1e-5);
  });

  it('baked mode has no spring bones: one warning, frames at rest, and live mode starts the springs again at rest', () => {
    const crowd = new Crowd(avatar, { capacity: 1 });
    const warnings: string[] = [];
    crowd.onWarning = (message) => warnings.push(message);
    crowd.add(0, 0.5);
    for (let i = 0; i < 10; i++) { crowd.update(DT); crowd.prepare(null); }
    crowd.mode = 'baked';
    crowd.prepare(null);
    const bakedRows = crowd.baked!.rows.slice();
    crowd.update(DT);
    crowd.prepare(null);
    crowd.rootMotion = crowd.rootMotion === 'off' ? 'in-place' : 'off';
    crowd.prepare(null);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/baked crowd has no spring bones/);
    expect(crowd.springs!.states[0].ready).toBe(false);
    // Baked frame 0 of clip 0 is the clip's pose at 0 with the springs at rest (a single avatar without springs).
    const still = new AnimatedModel(avatar);
    still.secondaryMotion!.springs!.enabled = false;
    still.evaluate(still.clipSample(0).at(0));
    const frame = new Float32Array(4 * crowd.poseLayout.texels);
    packInstancePose(frame, 0, still, crowd.asset, crowd.poseLayout);
    expect(maxDifference(bakedRows.subarray(0, frame.length), frame)).toBeLessThan(1e-6);
  });
});
