/**
 * VRM Animation load cost for `npm run bench` (bench/run-bench.ts, key `vrma.load60s_ms`): a 60 s `.vrma` made in
 * code, loaded with `loadClips` and retargeted through the humanoid onto a humanoid target with other rest frames
 * (`retargetClipLibrary`), what a page pays before an avatar plays a VRMA clip.
 */
import type { HumanoidBoneName } from '../src/asset/avatar-asset.ts';
import type { ModelAsset } from '../src/asset/model-asset.ts';
import { retargetClipLibrary } from '../src/loaders/clip-library.ts';
import { loadClips } from '../src/loaders/load-clips.ts';
import { parseGltf } from '../src/loaders/gltf/parse-gltf.ts';

/** Humanoid bones of the generated rig: bone, parent bone, offset from the parent (metres, T-pose, facing +Z). */
function humanoidRig(): { bone: HumanoidBoneName; parent: number; offset: [number, number, number] }[] {
  const rig: { bone: HumanoidBoneName; parent: number; offset: [number, number, number] }[] = [];
  const add = (bone: HumanoidBoneName, parent: HumanoidBoneName | null, offset: [number, number, number]) =>
    rig.push({ bone, parent: parent === null ? -1 : rig.findIndex((b) => b.bone === parent), offset });
  add('hips', null, [0, 1, 0]);
  add('spine', 'hips', [0, 0.1, 0]); add('chest', 'spine', [0, 0.12, 0]); add('upperChest', 'chest', [0, 0.12, 0]);
  add('neck', 'upperChest', [0, 0.12, 0]); add('head', 'neck', [0, 0.1, 0]);
  add('leftEye', 'head', [0.03, 0.06, 0.08]); add('rightEye', 'head', [-0.03, 0.06, 0.08]); add('jaw', 'head', [0, -0.02, 0.03]);
  for (const [side, x] of [['left', 1], ['right', -1]] as const) {
    add(`${side}UpperLeg`, 'hips', [0.09 * x, -0.05, 0]); add(`${side}LowerLeg`, `${side}UpperLeg`, [0, -0.42, 0]);
    add(`${side}Foot`, `${side}LowerLeg`, [0, -0.42, 0]); add(`${side}Toes`, `${side}Foot`, [0, -0.06, 0.12]);
    add(`${side}Shoulder`, 'upperChest', [0.03 * x, 0.1, 0]); add(`${side}UpperArm`, `${side}Shoulder`, [0.1 * x, 0, 0]);
    add(`${side}LowerArm`, `${side}UpperArm`, [0.26 * x, 0, 0]); add(`${side}Hand`, `${side}LowerArm`, [0.24 * x, 0, 0]);
    const fingers = [['Thumb', 'Metacarpal', 'Proximal', 'Distal'], ['Index', 'Proximal', 'Intermediate', 'Distal'],
      ['Middle', 'Proximal', 'Intermediate', 'Distal'], ['Ring', 'Proximal', 'Intermediate', 'Distal'], ['Little', 'Proximal', 'Intermediate', 'Distal']] as const;
    fingers.forEach(([finger, ...segments], f) => {
      let parent: HumanoidBoneName = `${side}Hand`;
      segments.forEach((segment, s) => {
        const bone = `${side}${finger}${segment}` as HumanoidBoneName;
        add(bone, parent, s === 0 ? [0.08 * x, 0, 0.03 - 0.015 * f] : [0.03 * x, 0, 0]);
        parent = bone;
      });
    });
  }
  return rig;
}

/** `json` and `bin` as GLB bytes (glTF 2.0 §4.4). */
function glb(json: object, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4, binLength = Math.ceil(bin.length / 4) * 4;
  const total = 12 + 8 + jsonLength + (bin.length > 0 ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true); view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength); out.set(text, 20);
  if (bin.length > 0) {
    view.setUint32(20 + jsonLength, binLength, true); view.setUint32(24 + jsonLength, 0x004e4942, true);
    out.set(bin, 28 + jsonLength);
  }
  return out;
}

/**
 * A `.vrma` of `seconds` at `fps` keys per second: the 55-bone humanoid of {@link humanoidRig} (identity rest
 * rotations), a rotation channel on every bone, the hips' translation, three expression tracks and the look-at.
 */
export function buildLongVrma(seconds: number, fps: number): Uint8Array {
  const rig = humanoidRig();
  const keys = seconds * fps + 1;
  const chunks: Float32Array[] = [];
  const bufferViews: object[] = [], accessors: object[] = [];
  let byteOffset = 0;
  const accessor = (data: Float32Array, type: string, extra: object = {}) => {
    chunks.push(data);
    bufferViews.push({ buffer: 0, byteOffset, byteLength: data.byteLength });
    byteOffset += data.byteLength;
    accessors.push({ bufferView: bufferViews.length - 1, componentType: 5126, count: data.length / ({ SCALAR: 1, VEC3: 3, VEC4: 4 } as Record<string, number>)[type], type, ...extra });
    return accessors.length - 1;
  };
  const times = accessor(Float32Array.from({ length: keys }, (_, k) => k / fps), 'SCALAR', { min: [0], max: [seconds] });
  const samplers: object[] = [], channels: object[] = [];
  const channel = (node: number, path: string, values: Float32Array, type: string) => {
    samplers.push({ input: times, output: accessor(values, type) });
    channels.push({ sampler: samplers.length - 1, target: { node, path } });
  };
  rig.forEach((_, b) => {
    const values = new Float32Array(4 * keys);
    for (let k = 0; k < keys; k++) {
      const angle = 0.4 * Math.sin((2 * Math.PI * k) / fps + b), axis = [Math.sin(b), Math.cos(b), Math.sin(2 * b)];
      const n = Math.hypot(...axis), s = Math.sin(angle / 2) / n;
      values.set([axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)], 4 * k);
    }
    channel(b, 'rotation', values, 'VEC4');
  });
  const hips = new Float32Array(3 * keys);
  for (let k = 0; k < keys; k++) hips.set([0.1 * Math.sin(k / fps), 1 + 0.05 * Math.sin((4 * k) / fps), 0.2 * (k / fps)], 3 * k);
  channel(0, 'translation', hips, 'VEC3');
  const expressionNames = ['happy', 'blink', 'aa'];
  const extra = rig.length;
  expressionNames.forEach((_, e) => {
    const weights = new Float32Array(3 * keys);
    for (let k = 0; k < keys; k++) weights[3 * k] = 0.5 + 0.5 * Math.sin((k + 10 * e) / fps);
    channel(extra + e, 'translation', weights, 'VEC3');
  });
  const lookAt = new Float32Array(4 * keys);
  for (let k = 0; k < keys; k++) { const a = 0.3 * Math.sin(k / fps); lookAt.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 4 * k); }
  channel(extra + expressionNames.length, 'rotation', lookAt, 'VEC4');

  const nodes: object[] = rig.map(({ bone, offset }, b) => ({
    name: `J_${bone}`, translation: offset, children: rig.flatMap((r, c) => (r.parent === b ? [c] : [])),
  }));
  for (const name of expressionNames) nodes.push({ name: `Expression_${name}` });
  nodes.push({ name: 'LookAt', translation: [0, 1.6, 0] });
  const bin = new Uint8Array(byteOffset);
  let at = 0;
  for (const chunk of chunks) { bin.set(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), at); at += chunk.byteLength; }
  const json = {
    asset: { version: '2.0' }, scene: 0,
    scenes: [{ nodes: [0, ...expressionNames.map((_, e) => extra + e), extra + expressionNames.length] }],
    nodes, buffers: [{ byteLength: bin.length }], bufferViews, accessors,
    animations: [{ name: 'long', samplers, channels }],
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: {
      VRMC_vrm_animation: {
        specVersion: '1.0',
        humanoid: { humanBones: Object.fromEntries(rig.map(({ bone }, b) => [bone, { node: b }])) },
        expressions: { preset: Object.fromEntries(expressionNames.map((name, e) => [name, { node: extra + e }])) },
        lookAt: { node: extra + expressionNames.length },
      },
    },
  };
  return glb(json, bin);
}

/**
 * A humanoid target of the same 55 bones, 0.9 times the size, every bone with a rest rotation of its own (a rig
 * whose bone frames are not world-aligned, as most non-VRM rigs), named `Bone_<bone>`, its `avatar.humanoid` set.
 */
export async function humanoidTarget(): Promise<ModelAsset> {
  const rig = humanoidRig();
  const nodes = rig.map(({ bone, offset }, b) => {
    const angle = 0.3 + 0.1 * b, s = Math.sin(angle / 2) / Math.SQRT2;
    return {
      name: `Bone_${bone}`, translation: offset.map((v) => 0.9 * v), rotation: [s, 0, s, Math.cos(angle / 2)],
      children: rig.flatMap((r, c) => (r.parent === b ? [c] : [])),
    };
  });
  const asset = await parseGltf('Target.glb', glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes }, new Uint8Array(0)));
  const bones: Partial<Record<HumanoidBoneName, number>> = {};
  rig.forEach(({ bone }) => { bones[bone] = asset.skeleton.names.indexOf(`Bone_${bone}`); });
  // Retargeting reads only the humanoid of the avatar.
  return { ...asset, avatar: { humanoid: { bones } } as ModelAsset['avatar'] };
}

/**
 * Milliseconds to load a 60 s, 30 keys-per-second `.vrma` ({@link buildLongVrma}) with `loadClips` and retarget it
 * onto {@link humanoidTarget} with `retargetClipLibrary`: the median of `runs`. The file is made once, outside the
 * timing.
 */
export async function vrmaLoadMs(runs = 5): Promise<number> {
  const bytes = buildLongVrma(60, 30);
  const target = await humanoidTarget();
  const none = async () => null;
  const elapsed: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const library = await loadClips({ name: 'long.vrma', bytes }, none);
    retargetClipLibrary(library, target);
    elapsed.push(performance.now() - started);
  }
  return elapsed.sort((a, b) => a - b)[runs >> 1];
}
