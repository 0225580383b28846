import { describe, expect, it } from 'vitest';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { createLocalPose, copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { validateSkeleton } from '../../../src/skeleton/skeleton.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import type { AnimationChannel, AnimationClip } from '../../../src/asset/animation-clip.ts';
import { validateAnimationChannel } from '../../../src/asset/animation-clip.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';

const asset: ModelAsset = createOctopusAsset();
const primitives = asset.meshes[0].primitives;
const [body, eyes, pupils] = primitives;
const jointCount = asset.skeleton.jointCount;

/** Column-major 4×4 of translation · rotation(x, y, z, w) · scale, written out independently of gl-matrix. */
function trs(pose: LocalPose, i: number): number[] {
  const [tx, ty, tz] = pose.translations.subarray(3 * i, 3 * i + 3);
  const [x, y, z, w] = pose.rotations.subarray(4 * i, 4 * i + 4);
  const [sx, sy, sz] = pose.scales.subarray(3 * i, 3 * i + 3);
  return [
    (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
    2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
    2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
    tx, ty, tz, 1,
  ];
}

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return out;
}

/** World matrix of joint i by naive recursion up the parent chain (docs/explanation/skinning-formulas.md S4). */
function worldOf(pose: LocalPose, i: number): number[] {
  const parent = asset.skeleton.parents[i];
  const local = trs(pose, i);
  return parent < 0 ? local : multiply(worldOf(pose, parent), local);
}

const restWorld = Array.from({ length: jointCount }, (_, i) => worldOf(asset.restPose, i));
const position = (m: number[]): [number, number, number] => [m[12], m[13], m[14]];

function allPositions(): Float32Array[] {
  return primitives.map((p) => p.positions);
}

describe('createOctopusAsset', () => {
  it('has a branching skeleton of a head and 8 chains of ≥ 4 joints, parents first', () => {
    expect(jointCount).toBeGreaterThanOrEqual(33);
    validateSkeleton(asset.skeleton, 'octopus');
    const children = new Array<number>(jointCount).fill(0);
    for (let i = 0; i < jointCount; i++) {
      const parent = asset.skeleton.parents[i];
      if (i === 0) expect(parent).toBe(-1);
      else expect(parent).toBeLessThan(i);
      if (parent >= 0) children[parent]++;
    }
    expect(children[0]).toBe(8);
    expect(asset.skeleton.names[0]).toBe('head');
    for (let k = 0; k < 8; k++) {
      for (let j = 0; j < 4; j++) expect(asset.skeleton.names).toContain(`tentacle${k}_${j}`);
    }
    // Each chain: tentacle k_j's parent is tentacle k_(j−1), k_0's is the head.
    const names = asset.skeleton.names;
    for (let i = 1; i < jointCount; i++) {
      const [, k, j] = /^tentacle(\d)_(\d)$/.exec(names[i])!;
      const parentName = j === '0' ? 'head' : `tentacle${k}_${Number(j) - 1}`;
      expect(names[asset.skeleton.parents[i]]).toBe(parentName);
    }
  });

  it('is one skinned mesh instance on joint 0 with a skin over every joint, Y up, no warnings', () => {
    expect(asset.meshInstances).toEqual([{ node: 0, sourceNode: null, mesh: 0, skin: 0 }]);
    expect(asset.skins).toHaveLength(1);
    expect(Array.from(asset.skins[0].joints)).toEqual(Array.from({ length: jointCount }, (_, i) => i));
    expect(asset.upAxis).toBe('y');
    expect(asset.warnings).toEqual([]);
    expect(primitives).toHaveLength(3);
    for (const p of primitives) {
      expect(p.material).toBeGreaterThanOrEqual(0);
      expect(p.material).toBeLessThan(asset.materials.length);
    }
    expect(new Set(primitives.map((p) => p.material)).size).toBe(3);
  });

  it('has ≥ 5 000 vertices, valid Uint16 triangle indices and UVs in [0, 1]', () => {
    const total = primitives.reduce((n, p) => n + p.vertexCount, 0);
    expect(total).toBeGreaterThanOrEqual(5000);
    expect(total).toBeLessThanOrEqual(20000);
    for (const p of primitives) {
      expect(p.indices).toBeInstanceOf(Uint16Array);
      expect(p.indices.length % 3).toBe(0);
      let max = 0;
      for (const i of p.indices) max = Math.max(max, i);
      expect(max).toBeLessThan(p.vertexCount);
      expect(p.positions.length).toBe(3 * p.vertexCount);
      expect(p.normals.length).toBe(3 * p.vertexCount);
      expect(p.uvs!.length).toBe(2 * p.vertexCount);
      expect(p.uvs!.filter((uv) => !(uv >= 0 && uv <= 1)).length).toBe(0);
    }
  });

  it('has 4 influences per vertex, weights ≥ 0 summing to 1, joints within the skin', () => {
    const skinJoints = asset.skins[0].joints.length;
    let blendedWithHead = 0, bad = 0;
    for (const p of primitives) {
      expect(p.joints!.length).toBe(4 * p.vertexCount);
      expect(p.weights!.length).toBe(4 * p.vertexCount);
      for (let v = 0; v < p.vertexCount; v++) {
        let sum = 0, head = 0, other = 0;
        for (let k = 0; k < 4; k++) {
          const w = p.weights![4 * v + k], j = p.joints![4 * v + k];
          if (!(w >= 0) || j >= skinJoints) bad++;
          sum += w;
          if (j === 0) head += w;
          else other += w;
        }
        if (!(Math.abs(sum - 1) < 1e-6)) bad++;
        if (head > 0.05 && other > 0.05) blendedWithHead++;
      }
    }
    expect(bad).toBe(0);
    // Tentacle bases blend into the head: 8 tentacles × several rings × 17 columns.
    expect(blendedWithHead).toBeGreaterThan(8 * 2 * 17);
    // Eyes and pupils ride the head joint alone.
    for (const p of [eyes, pupils]) {
      for (let v = 0; v < p.vertexCount; v++) if (p.joints![4 * v] !== 0 || p.weights![4 * v] !== 1) bad++;
      expect(bad).toBe(0);
    }
  });

  it('has inverse bind matrices that undo the rest world matrices (computed independently)', () => {
    const ibm = asset.skins[0].inverseBindMatrices;
    expect(ibm.length).toBe(16 * jointCount);
    for (let i = 0; i < jointCount; i++) {
      const product = multiply(ibm.subarray(16 * i, 16 * i + 16), restWorld[i]);
      for (let e = 0; e < 16; e++) expect(Math.abs(product[e] - (e % 5 === 0 ? 1 : 0))).toBeLessThan(1e-5);
    }
  });

  it('skins to its own bind pose in the rest pose (the lead pipeline, rest palette)', () => {
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(-1));
    for (const p of primitives) {
      const out = new Float32Array(p.positions.length);
      skinVertices(out, null, p, model.skinMatrices[0], model.skinningContexts[0]);
      let worst = 0;
      for (let i = 0; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i] - p.positions[i]));
      expect(worst).toBeLessThan(1e-5);
    }
  });

  it('is about 1–2 m tall, under 2 m wide and centred near the origin', () => {
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (const positions of allPositions()) {
      expect(positions.every(Number.isFinite)).toBe(true);
      for (let i = 0; i < positions.length; i++) {
        min[i % 3] = Math.min(min[i % 3], positions[i]);
        max[i % 3] = Math.max(max[i % 3], positions[i]);
      }
    }
    const height = max[1] - min[1];
    expect(height).toBeGreaterThan(1);
    expect(height).toBeLessThan(2);
    expect(max[0] - min[0]).toBeLessThan(2);
    expect(max[2] - min[2]).toBeLessThan(2);
    for (let c = 0; c < 3; c++) expect(Math.abs((min[c] + max[c]) / 2)).toBeLessThan(0.3);
    // The head is the top: the highest vertex is above the head joint, tentacles reach well below it.
    const head = position(restWorld[0]);
    expect(max[1]).toBeGreaterThan(head[1] + 0.3);
    expect(min[1]).toBeLessThan(head[1] - 0.6);
  });

  it('has unit normals that agree with the winding, and closed surfaces wound outward', () => {
    for (const p of primitives) {
      let notUnit = 0;
      for (let v = 0; v < p.vertexCount; v++) {
        const n = p.normals.subarray(3 * v, 3 * v + 3);
        if (!(Math.abs(Math.hypot(n[0], n[1], n[2]) - 1) < 1e-5)) notUnit++;
      }
      expect(notUnit).toBe(0);
      let volume = 0, agree = 0, faces = 0;
      const x = p.positions, n = p.normals;
      for (let t = 0; t < p.indices.length; t += 3) {
        const a = 3 * p.indices[t], b = 3 * p.indices[t + 1], c = 3 * p.indices[t + 2];
        // Signed volume of the tetrahedron (origin, a, b, c): positive sum ⇔ outward winding.
        volume += (x[a] * (x[b + 1] * x[c + 2] - x[b + 2] * x[c + 1]) -
          x[a + 1] * (x[b] * x[c + 2] - x[b + 2] * x[c]) +
          x[a + 2] * (x[b] * x[c + 1] - x[b + 1] * x[c])) / 6;
        const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
        const e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
        const f = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        if (Math.hypot(f[0], f[1], f[2]) < 1e-12) continue;
        faces++;
        const dot = f[0] * (n[a] + n[b] + n[c]) + f[1] * (n[a + 1] + n[b + 1] + n[c + 1]) + f[2] * (n[a + 2] + n[b + 2] + n[c + 2]);
        if (dot > 0) agree++;
      }
      expect(volume).toBeGreaterThan(0);
      expect(agree / faces).toBeGreaterThan(0.99);
    }
    // Eyeballs: about 4/3·π·r³ each, r ≈ 6.5 cm, so both together are well under a litre but positive.
    let eyeVolume = 0;
    for (let t = 0; t < eyes.indices.length; t += 3) {
      const x = eyes.positions, a = 3 * eyes.indices[t], b = 3 * eyes.indices[t + 1], c = 3 * eyes.indices[t + 2];
      eyeVolume += (x[a] * (x[b + 1] * x[c + 2] - x[b + 2] * x[c + 1]) - x[a + 1] * (x[b] * x[c + 2] - x[b + 2] * x[c]) + x[a + 2] * (x[b] * x[c + 1] - x[b + 1] * x[c])) / 6;
    }
    expect(eyeVolume).toBeGreaterThan(2 * (4 / 3) * Math.PI * 0.05 ** 3);
    expect(eyeVolume).toBeLessThan(2 * (4 / 3) * Math.PI * 0.08 ** 3);
  });

  it('has normals pointing away from the axis of every ring of the mesh grids', () => {
    // Each closed surface is a grid whose rows (runs of vertices with equal texture v) are rings around
    // its axis: latitude circles of the mantle, cross-sections of the tentacle tubes. A ring's centroid
    // lies on the axis, so an outward normal has a positive component along (vertex − centroid).
    for (const p of primitives) {
      let checked = 0, outward = 0;
      let start = 0;
      while (start < p.vertexCount) {
        let end = start + 1;
        while (end < p.vertexCount && p.uvs![2 * end + 1] === p.uvs![2 * start + 1] && p.uvs![2 * end] > p.uvs![2 * end - 2]) end++;
        expect(end - start).toBeGreaterThanOrEqual(9);
        // The last vertex of a ring repeats the first (the UV seam).
        const count = end - start - 1;
        const centre = [0, 0, 0];
        for (let v = start; v < end - 1; v++) for (let c = 0; c < 3; c++) centre[c] += p.positions[3 * v + c] / count;
        let radius = 0;
        for (let c = 0; c < 3; c++) radius = Math.max(radius, Math.abs(p.positions[3 * start + c] - centre[c]));
        if (radius > 1e-4) {
          for (let v = start; v < end; v++) {
            let dot = 0;
            for (let c = 0; c < 3; c++) dot += p.normals[3 * v + c] * (p.positions[3 * v + c] - centre[c]);
            checked++;
            if (dot > 0) outward++;
          }
        }
        start = end;
      }
      expect(checked).toBeGreaterThan(0.75 * p.vertexCount); // all but the pole rows
      expect(outward).toBe(checked);
    }
    // The mantle is star-shaped about the head joint: its normals point away from it.
    const head = position(restWorld[0]);
    let mantle = 0, away = 0;
    for (let v = 0; v < body.vertexCount; v++) {
      if (body.weights![4 * v] !== 1 || body.joints![4 * v] !== 0) continue;
      const r = [0, 1, 2].map((c) => body.positions[3 * v + c] - head[c]);
      if (Math.hypot(r[0], r[1], r[2]) < 0.2) continue; // tentacle base caps inside the head
      mantle++;
      if (r[0] * body.normals[3 * v] + r[1] * body.normals[3 * v + 1] + r[2] * body.normals[3 * v + 2] > 0) away++;
    }
    expect(mantle).toBeGreaterThan(2000);
    expect(away).toBe(mantle);
    // Eyes and pupils: normals point away from their own centre.
    for (const p of [eyes, pupils]) {
      const half = p.vertexCount / 2;
      for (let e = 0; e < 2; e++) {
        const centre = [0, 0, 0];
        for (let v = e * half; v < (e + 1) * half; v++) for (let c = 0; c < 3; c++) centre[c] += p.positions[3 * v + c] / half;
        expect(centre[2]).toBeGreaterThan(0); // the eyes look forward, +Z
        let inward = 0;
        for (let v = e * half; v < (e + 1) * half; v++) {
          let dot = 0;
          for (let c = 0; c < 3; c++) dot += p.normals[3 * v + c] * (p.positions[3 * v + c] - centre[c]);
          if (!(dot > 0)) inward++;
        }
        expect(inward).toBe(0);
      }
    }
  });

  it('has a seamless swim loop of LINEAR keys ≥ 30 per second, last key equal to the first', () => {
    const swim = asset.clips.find((c) => c.name === 'swim')!;
    expect(swim).toBeDefined();
    expect(swim.duration).toBeCloseTo(2, 6);
    // Every tentacle joint's rotation is animated, plus the head.
    const rotated = new Set(swim.channels.filter((c) => c.path === 'rotation').map((c) => c.joint));
    expect(rotated.size).toBe(jointCount);
    for (const clip of [swim]) {
      for (const channel of clip.channels) {
        expect(channel.interpolation).toBe('LINEAR');
        const k = channel.times.length;
        expect(k).toBeGreaterThanOrEqual(30 * clip.duration + 1);
        expect(channel.times[0]).toBe(0);
        expect(channel.times[k - 1]).toBe(clip.duration);
        for (let i = 1; i < k; i++) if (!(channel.times[i] > channel.times[i - 1])) throw new Error(`times not increasing at ${i}`);
        const c = channel.path === 'rotation' ? 4 : 3;
        expect(channel.values.length).toBe(k * c);
        for (let e = 0; e < c; e++) expect(channel.values[(k - 1) * c + e]).toBe(channel.values[e]);
        if (channel.path === 'rotation') {
          for (let i = 0; i < k; i++) {
            const q = channel.values.subarray(4 * i, 4 * i + 4);
            if (!(Math.abs(Math.hypot(q[0], q[1], q[2], q[3]) - 1) < 1e-5)) throw new Error(`joint ${channel.joint} key ${i}: quaternion not unit`);
          }
        }
      }
      // Sampled through the lead's sampleClip: the pose at 0 equals the pose at the duration.
      const start = copyLocalPose(createLocalPose(jointCount), asset.restPose);
      const end = copyLocalPose(createLocalPose(jointCount), asset.restPose);
      sampleClipOnce(start, clip, 0);
      sampleClipOnce(end, clip, clip.duration);
      for (const key of ['translations', 'rotations', 'scales'] as const) {
        for (let i = 0; i < start[key].length; i++) expect(Math.abs(start[key][i] - end[key][i])).toBeLessThan(1e-6);
      }
    }
  });

  it('swims: tentacle tips travel, waves are phase-shifted per tentacle, the head bobs', () => {
    const swim = asset.clips.find((c) => c.name === 'swim')!;
    const names = asset.skeleton.names;
    const tips = Array.from({ length: 8 }, (_, k) => names.lastIndexOf(names.filter((n) => n.startsWith(`tentacle${k}_`)).at(-1)!));
    const poseAt = (t: number) => {
      const pose = copyLocalPose(createLocalPose(jointCount), asset.restPose);
      sampleClipOnce(pose, swim, t);
      return pose;
    };
    const times = [0, 0.5, 1, 1.5];
    const worlds = times.map((t) => {
      const pose = poseAt(t);
      return Array.from({ length: jointCount }, (_, i) => worldOf(pose, i));
    });
    const headHeights = worlds.map((w) => w[0][13]);
    expect(Math.max(...headHeights) - Math.min(...headHeights)).toBeGreaterThan(0.03);
    expect(Math.max(...headHeights) - Math.min(...headHeights)).toBeLessThan(0.2);
    const travels = tips.map((tip) => {
      let most = 0;
      for (const w of worlds) most = Math.max(most, Math.hypot(w[tip][12] - worlds[0][tip][12], w[tip][13] - worlds[0][tip][13], w[tip][14] - worlds[0][tip][14]));
      return most;
    });
    for (const travel of travels) {
      expect(travel).toBeGreaterThan(0.05);
      expect(travel).toBeLessThan(1);
    }
    // Tentacles are not in lock step: at t = 0.5 s tip offsets from rest differ between tentacles.
    const offsets = tips.map((tip) => {
      const dx = worlds[1][tip][12] - restWorld[tip][12], dz = worlds[1][tip][14] - restWorld[tip][14];
      const heading = Math.atan2(restWorld[tip][14], restWorld[tip][12]);
      return dx * Math.cos(heading) + dz * Math.sin(heading); // radial (outward) displacement
    });
    expect(Math.max(...offsets) - Math.min(...offsets)).toBeGreaterThan(0.05);
    // Skinned mid-swim: finite and within 2.5 m.
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(asset.clips.indexOf(swim)).at(0.5));
    for (const p of primitives) {
      const out = new Float32Array(p.positions.length);
      skinVertices(out, null, p, model.skinMatrices[0], model.skinningContexts[0]);
      expect(out.every((x) => Number.isFinite(x) && Math.abs(x) < 1.25)).toBe(true);
    }
  });

  it('is deterministic', () => {
    const again = createOctopusAsset();
    const same = (x: ArrayLike<number>, y: ArrayLike<number>) => x.length === y.length && Array.prototype.every.call(x, (e: number, i: number) => Object.is(e, y[i]));
    for (let i = 0; i < primitives.length; i++) {
      expect(same(again.meshes[0].primitives[i].positions, primitives[i].positions)).toBe(true);
      expect(same(again.meshes[0].primitives[i].weights!, primitives[i].weights!)).toBe(true);
    }
    for (let c = 0; c < asset.clips.length; c++) {
      expect(again.clips[c].channels.length).toBe(asset.clips[c].channels.length);
      for (let i = 0; i < asset.clips[c].channels.length; i++) {
        expect(same(again.clips[c].channels[i].times, asset.clips[c].channels[i].times)).toBe(true);
        expect(same(again.clips[c].channels[i].values, asset.clips[c].channels[i].values)).toBe(true);
      }
    }
    expect(same(again.skins[0].inverseBindMatrices, asset.skins[0].inverseBindMatrices)).toBe(true);
  });
});

// The keyed clips: sparse keys through the samplers glTF cannot carry (CATMULLROM, HERMITE, BEZIER).
describe('octopus clips curl (CATMULLROM) and wave (HERMITE, BEZIER)', () => {
  const clipNamed = (name: string): AnimationClip => {
    const clip = asset.clips.find((c) => c.name === name);
    if (!clip) throw new Error(`no clip ${name}`);
    return clip;
  };
  const curl = clipNamed('curl');
  const wave = clipNamed('wave');
  const names = asset.skeleton.names;
  const tipJoint = (k: number) => names.indexOf(`tentacle${k}_5`);

  /**
   * Where key i's value sits in `values`, written out from the layouts in the AnimationChannel doc comment
   * (not through keyStride / keyValueOffset): floats per key and the value's offset inside the key.
   */
  function keyValue(channel: AnimationChannel, i: number): Float32Array {
    const c = channel.path === 'rotation' ? 4 : 3;
    const layout: Record<string, [number, number]> = {
      STEP: [c, 0], LINEAR: [c, 0], CATMULLROM: [c, 0], CUBICSPLINE: [3 * c, c], HERMITE: [2 * c, 0], BEZIER: [5 * c, 2 * c],
    };
    const [stride, offset] = layout[channel.interpolation];
    return channel.values.subarray(i * stride + offset, i * stride + offset + c);
  }

  function poseAt(clip: AnimationClip, t: number): LocalPose {
    return sampleClipOnce(copyLocalPose(createLocalPose(jointCount), asset.restPose), clip, t);
  }

  /** Skinned body positions (the lead pipeline) of `clip` at t seconds. */
  function skinnedBody(clip: AnimationClip, t: number): Float32Array {
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(asset.clips.indexOf(clip)).at(t));
    const out = new Float32Array(body.positions.length);
    skinVertices(out, null, body, model.skinMatrices[0], model.skinningContexts[0]);
    return out;
  }

  /** Body vertices weighted ≥ 0.5 on tentacle k's tip joint. */
  const tipVertices = Array.from({ length: 8 }, (_, k) => {
    const out: number[] = [];
    for (let v = 0; v < body.vertexCount; v++) {
      for (let i = 0; i < 4; i++) if (body.joints![4 * v + i] === tipJoint(k) && body.weights![4 * v + i] >= 0.5) out.push(v);
    }
    return out;
  });

  /** Largest distance (metres) of tentacle k's tip vertices from their bind (rest) positions. */
  function tipDisplacement(skinned: Float32Array, k: number): number {
    let most = 0;
    for (const v of tipVertices[k]) {
      most = Math.max(most, Math.hypot(
        skinned[3 * v] - body.positions[3 * v], skinned[3 * v + 1] - body.positions[3 * v + 1], skinned[3 * v + 2] - body.positions[3 * v + 2]));
    }
    return most;
  }

  it('are named swim, curl, wave, and every channel of every clip validates and spans [0, duration]', () => {
    expect(asset.clips.map((c) => c.name)).toEqual(['swim', 'curl', 'wave']);
    expect(curl.duration).toBe(3);
    expect(wave.duration).toBeCloseTo(2.4, 6);
    for (const clip of asset.clips) {
      expect(clip.channels.length).toBeGreaterThan(0);
      for (const [i, channel] of clip.channels.entries()) {
        expect(() => validateAnimationChannel(channel, jointCount, `${clip.name}/channels/${i}`)).not.toThrow();
        expect(channel.times[0]).toBe(0);
        expect(channel.times[channel.times.length - 1]).toBe(clip.duration);
        expect(channel.values.every(Number.isFinite)).toBe(true);
      }
      // Every tentacle joint's rotation is animated.
      const rotated = new Set(clip.channels.filter((c) => c.path === 'rotation').map((c) => c.joint));
      for (let j = 1; j < jointCount; j++) expect(rotated.has(j)).toBe(true);
    }
  });

  it('curl: sparse CATMULLROM keys (5–7 per channel), unit rotations in one hemisphere, first key = last key', () => {
    for (const channel of curl.channels) {
      expect(channel.interpolation).toBe('CATMULLROM');
      expect(channel.times.length).toBeGreaterThanOrEqual(5);
      expect(channel.times.length).toBeLessThanOrEqual(7);
      const last = channel.times.length - 1;
      expect(Array.from(keyValue(channel, last))).toEqual(Array.from(keyValue(channel, 0)));
      if (channel.path !== 'rotation') continue;
      for (let i = 0; i <= last; i++) {
        const q = keyValue(channel, i);
        expect(Math.abs(Math.hypot(q[0], q[1], q[2], q[3]) - 1)).toBeLessThan(1e-6);
        if (i > 0) {
          const p = keyValue(channel, i - 1);
          expect(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]).toBeGreaterThan(0);
        }
      }
    }
    expect(curl.channels.some((c) => c.joint === 0 && c.path === 'translation')).toBe(true);
  });

  it('wave: HERMITE rotations with tangents that vanish at rest, a BEZIER head bob with valid handles', () => {
    const rotations = wave.channels.filter((c) => c.path === 'rotation');
    expect(rotations.length).toBe(jointCount - 1);
    let movingTangents = 0;
    for (const channel of rotations) {
      expect(channel.interpolation).toBe('HERMITE');
      const k = channel.times.length;
      expect(k).toBeGreaterThanOrEqual(5);
      expect(k).toBeLessThanOrEqual(10);
      // Key j: value (4), tangent (4). First and last keys are the rest pose, at rest (zero tangent).
      for (let e = 0; e < 4; e++) {
        expect(channel.values[e]).toBe(channel.values[8 * (k - 1) + e]);
        expect(channel.values[4 + e]).toBe(0);
        expect(channel.values[8 * (k - 1) + 4 + e]).toBe(0);
      }
      // …the rest rotation, up to the last-bit rounding that makes it a fixed point of renormalisation.
      for (let e = 0; e < 4; e++) expect(Math.abs(channel.values[e] - asset.restPose.rotations[4 * channel.joint + e])).toBeLessThan(2e-7);
      for (let i = 0; i < k; i++) {
        const q = channel.values.subarray(8 * i, 8 * i + 4), m = channel.values.subarray(8 * i + 4, 8 * i + 8);
        expect(Math.abs(Math.hypot(q[0], q[1], q[2], q[3]) - 1)).toBeLessThan(1e-6);
        // The tangent of a unit-quaternion path is orthogonal to it.
        expect(Math.abs(q[0] * m[0] + q[1] * m[1] + q[2] * m[2] + q[3] * m[3])).toBeLessThan(1e-5);
        if (Math.hypot(m[0], m[1], m[2], m[3]) > 0.1) movingTangents++;
      }
    }
    expect(movingTangents).toBeGreaterThan(rotations.length); // explicit, non-zero tangents where the arm passes through

    const bob = wave.channels.filter((c) => c.path === 'translation');
    expect(bob).toHaveLength(1);
    expect(bob[0].joint).toBe(0);
    expect(bob[0].interpolation).toBe('BEZIER');
    const v = bob[0].values, n = bob[0].times.length;
    for (let i = 0; i < n; i++) {
      for (let e = 0; e < 3; e++) {
        const key = 15 * i;
        expect(v[key + e]).toBeLessThanOrEqual(0); // in-handle Δtime
        expect(v[key + 9 + e]).toBeGreaterThanOrEqual(0); // out-handle Δtime
        // Height (e = 1): flat handles, so every rise and fall eases in and out.
        if (e === 1) {
          expect(v[key + 3 + e]).toBe(v[key + 6 + e]);
          expect(v[key + 12 + e]).toBe(v[key + 6 + e]);
        }
      }
    }
    for (let e = 0; e < 15; e++) if (e >= 3 && e < 9 || e >= 12) expect(v[15 * (n - 1) + e]).toBe(v[e]);
  });

  it('sampled exactly at a key time, every channel gives that key\'s value bit for bit', () => {
    for (const clip of [curl, wave]) {
      const keyTimes = new Set<number>();
      for (const channel of clip.channels) for (const t of channel.times) keyTimes.add(t);
      let checked = 0;
      for (const t of keyTimes) {
        const pose = poseAt(clip, t);
        for (const channel of clip.channels) {
          const i = channel.times.indexOf(t);
          if (i < 0) continue;
          const c = channel.path === 'rotation' ? 4 : 3;
          const target = channel.path === 'rotation' ? pose.rotations : channel.path === 'translation' ? pose.translations : pose.scales;
          const expected = keyValue(channel, i);
          for (let e = 0; e < c; e++) {
            if (!Object.is(target[c * channel.joint + e], expected[e])) {
              throw new Error(`${clip.name}: joint ${channel.joint} ${channel.path} key ${i} at ${t} s: ${target[c * channel.joint + e]} ≠ ${expected[e]}`);
            }
          }
          checked++;
        }
      }
      expect(checked).toBe(clip.channels.reduce((sum, ch) => sum + ch.times.length, 0));
    }
  });

  it('loop seamlessly: the pose at 0 equals the pose at the duration, and it leaves and arrives at the same speed', () => {
    for (const clip of [curl, wave]) {
      const d = clip.duration, h = 1e-3;
      const [p0, pD, pStart, pEnd] = [0, d, h, d - h].map((t) => poseAt(clip, t));
      for (const key of ['translations', 'rotations', 'scales'] as const) {
        for (let i = 0; i < p0[key].length; i++) {
          expect(Math.abs(p0[key][i] - pD[key][i])).toBeLessThan(1e-6);
          // Finite-difference velocity just after 0 and just before the duration, units per second.
          const leaving = (pStart[key][i] - p0[key][i]) / h, arriving = (pD[key][i] - pEnd[key][i]) / h;
          expect(Math.abs(leaving - arriving)).toBeLessThan(0.01);
        }
      }
    }
  });

  it('curl moves every tentacle tip mid-clip and brings the tips in under the body', () => {
    const restTip = Array.from({ length: 8 }, (_, k) => restWorld[tipJoint(k)]);
    const skinned = skinnedBody(curl, 1.5);
    expect(skinned.every((x) => Number.isFinite(x) && Math.abs(x) < 1.25)).toBe(true);
    const pose = poseAt(curl, 1.5);
    for (let k = 0; k < 8; k++) {
      expect(tipDisplacement(skinned, k)).toBeGreaterThan(0.1);
      // The tip joint is nearer the body axis than at rest.
      const tip = worldOf(pose, tipJoint(k));
      expect(Math.hypot(tip[12], tip[14])).toBeLessThan(Math.hypot(restTip[k][12], restTip[k][14]) - 0.05);
    }
    // At the loop's ends the tips are back at rest.
    const atStart = skinnedBody(curl, 0);
    for (let k = 0; k < 8; k++) expect(tipDisplacement(atStart, k)).toBeLessThan(1e-5);
    // The head sinks a few centimetres at full curl.
    const sink = asset.restPose.translations[1] - pose.translations[1];
    expect(sink).toBeGreaterThan(0.03);
    expect(sink).toBeLessThan(0.08);
  });

  it('wave raises the tentacles one after another: each tip moves and rises, peaking in ring order', () => {
    const times = Array.from({ length: 48 }, (_, i) => (i + 0.5) * (wave.duration / 48));
    const peakTime: number[] = new Array(8).fill(0), peak: number[] = new Array(8).fill(0);
    const rise: number[] = new Array(8).fill(-Infinity);
    let moving = 0, still = 0;
    for (const t of times) {
      const skinned = skinnedBody(wave, t);
      expect(skinned.every((x) => Number.isFinite(x) && Math.abs(x) < 1.5)).toBe(true);
      const pose = poseAt(wave, t);
      for (let k = 0; k < 8; k++) {
        const d = tipDisplacement(skinned, k);
        if (d > peak[k]) { peak[k] = d; peakTime[k] = t; }
        rise[k] = Math.max(rise[k], worldOf(pose, tipJoint(k))[13] - restWorld[tipJoint(k)][13]);
      }
      if (Math.abs(t - 1.2) < wave.duration / 96) {
        // Mid-clip: some arms are up while others are at rest.
        const at = Array.from({ length: 8 }, (_, k) => tipDisplacement(skinned, k));
        moving = at.filter((d) => d > 0.1).length;
        still = at.filter((d) => d < 0.01).length;
      }
    }
    for (let k = 0; k < 8; k++) {
      expect(peak[k]).toBeGreaterThan(0.2);
      expect(rise[k]).toBeGreaterThan(0.1); // the tip goes up, not only sideways
      if (k > 0) expect(peakTime[k]).toBeGreaterThan(peakTime[k - 1]);
    }
    expect(moving).toBeGreaterThanOrEqual(1);
    expect(still).toBeGreaterThanOrEqual(2);
    // The head bobs 3 cm (twice per loop).
    const heights = times.map((t) => poseAt(wave, t).translations[1] - asset.restPose.translations[1]);
    expect(Math.max(...heights)).toBeGreaterThan(0.025);
    expect(Math.max(...heights)).toBeLessThan(0.04);
    expect(Math.min(...heights)).toBeGreaterThan(-0.005);
  });
});
