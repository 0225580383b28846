import { describe, expect, it, vi } from 'vitest';
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { GpuModel } from '../../../src/gpu/skinning/gpu-model.ts';
import type { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import type { RenderItem } from '../../../src/gpu/passes/render-item.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createSwordAsset } from '../../../src/procedural/sword.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { splitDisplayTranslation } from '../../../src/scene/prop-placement.ts';
import type { PoseBuffers } from '../../../src/skeleton/pose-buffers.ts';
import { DEFAULT_SKINNING_METHOD } from '../../../src/skinning/skinning-method.ts';
import { offsetMatrix, ViewAttachments } from '../../../src/view/view-attachments.ts';
import type { FrameStage, ViewFrame } from '../../../src/view/view-frame.ts';
import { atOffset, FAR_OFFSET } from '../../browser/helpers/far-offset.ts';

interface Drawn { asset: string; display: Float32Array; origin: Float64Array; modelMatrices: Float32Array }

/** A renderer that records draws and hands out GPU models. */
function fakeRenderer() {
  const drawn: Drawn[] = [];
  const renderer = {
    lost: false,
    gl: { isContextLost: () => renderer.lost },
    uploads: 0,
    async upload(asset: ModelAsset): Promise<GpuModel> {
      renderer.uploads++;
      let disposed = false;
      return { asset, dispose: () => (disposed = true), get isDisposed() { return disposed; } } as unknown as GpuModel;
    },
    draw(item: RenderItem) {
      const pose = item.pose;
      drawn.push({ asset: item.gpuModel.asset.name, display: item.displayMatrix!.slice(), origin: Float64Array.from(pose.origin ?? [0, 0, 0]), modelMatrices: pose.modelMatrices.slice() });
    },
  };
  return { renderer, drawn };
}

/** A view with one model shown: stages run by `frame()`, the character replaceable. */
function fakeView(character: AnimatedModel) {
  const { renderer, drawn } = fakeRenderer();
  const stages: FrameStage[] = [];
  const host = {
    animated: character as AnimatedModel | null,
    addStage: (stage: FrameStage) => { stages.push(stage); return () => stages.splice(stages.indexOf(stage), 1); },
    requestRedraw: vi.fn(),
  };
  const attachments = new ViewAttachments(host, () => renderer as unknown as SkinnedRenderer);
  attachments.onWarning = vi.fn();
  const frame = () => {
    const f = { animated: host.animated!, renderer, camera: {}, method: DEFAULT_SKINNING_METHOD } as unknown as ViewFrame;
    for (const stage of stages) stage.afterDraw(f);
  };
  return { host, renderer, drawn, stages, attachments, frame };
}

/**
 * Where the renderer puts prop vertex `v` (model space of the prop, on its node 0) from what it was handed:
 * `display · (T(−O_prop)·M) · v + mat3(display) · origin` (the origin fold of `SkinnedRenderer.draw`), in f64.
 */
function drawnPosition(d: Drawn, v: ArrayLike<number>): number[] {
  const m = d.modelMatrices, D = d.display, o = d.origin;
  const p = [0, 1, 2].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r]);
  return [0, 1, 2].map((r) => D[r] * p[0] + D[4 + r] * p[1] + D[8 + r] * p[2] + D[12 + r] + D[r] * o[0] + D[4 + r] * o[1] + D[8 + r] * o[2]);
}

/** The expectation, independently: world · (joint's model matrix from the model's f32 buffers + origin) · offset · v, in f64 with gl-matrix. */
function expectedPosition(character: AnimatedModel, joint: number, offset: Float64Array, v: ArrayLike<number>): number[] {
  const m = Float64Array.from(character.modelMatrices.subarray(16 * joint, 16 * joint + 16));
  for (let k = 0; k < 3; k++) m[12 + k] += character.origin[k];
  const all = new Float64Array(16) as unknown as mat4;
  mat4.multiply(all, character.world as unknown as mat4, m as unknown as mat4);
  mat4.multiply(all, all, offset as unknown as mat4);
  return [0, 1, 2].map((r) => all[r] * v[0] + all[4 + r] * v[1] + all[8 + r] * v[2] + all[12 + r]);
}

const OFFSET = [0, 0, 1, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0.05, 0.02, -0.01, 1]; // a quarter turn and a few centimetres

describe('ViewAttachments', () => {
  const octopus = createOctopusAsset();

  it('draws the prop at jointMatrix · offset of the pose of each frame, no frame behind', async () => {
    const character = new AnimatedModel(octopus);
    mat4.fromYRotation(character.world as unknown as mat4, 0.7);
    const view = fakeView(character);
    const sword = await view.attachments.attach(createSwordAsset(), 'tentacle3_5', OFFSET);
    expect(sword.joint).toBe(octopus.skeleton.names.indexOf('tentacle3_5'));
    const tip = createSwordAsset().meshes[0].primitives[0].positions.subarray(0, 3);
    for (const t of [0.1, 0.5, 0.9, 1.3]) {
      character.evaluate(character.clipSample(0).at(t));
      view.frame();
      const drawn = view.drawn.at(-1)!;
      const got = drawnPosition(drawn, tip), want = expectedPosition(character, sword.joint, sword.offset, tip);
      for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThan(1e-6);
    }
    // The tentacle tip moves between those times, far more than the tolerance.
    const a = view.drawn.at(-2)!, b = view.drawn.at(-1)!;
    expect(Math.hypot(...drawnPosition(a, tip).map((x, k) => x - drawnPosition(b, tip)[k]))).toBeGreaterThan(0.01);
  });

  it(`keeps a prop on a character ${FAR_OFFSET.join(', ')} away in place to float32 of its own size (the translation folded into the origin)`, async () => {
    const character = new AnimatedModel(atOffset(octopus));
    expect(character.origin[0]).toBeGreaterThan(1000);
    const view = fakeView(character);
    const sword = await view.attachments.attach(createSwordAsset(), 'tentacle0_5', OFFSET);
    character.evaluate(character.clipSample(0).at(0.7));
    view.frame();
    const drawn = view.drawn.at(-1)!;
    expect(Array.from(drawn.display.subarray(12, 15))).toEqual([0, 0, 0]);
    for (const v of [[0, 0.8, 0], [0.09, 0.1, 0.015]]) {
      const got = drawnPosition(drawn, v), want = expectedPosition(character, sword.joint, sword.offset, v);
      // float32 at 10 km is ~1e-3 m apart: folding keeps a micrometre.
      for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThan(1e-6);
    }
  });

  it('splitDisplayTranslation leaves a singular matrix whole', () => {
    const display = Float64Array.from([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1]);
    const out = new Float32Array(16), origin = new Float64Array(3);
    expect(splitDisplayTranslation(display, Float64Array.of(1, 2, 3), out, origin)).toBe(false);
    expect(Array.from(out)).toEqual(Array.from(display));
    expect(Array.from(origin)).toEqual([1, 2, 3]);
  });

  it('reads the character from each frame: a new AnimatedModel of the same skeleton (clips added) is followed', async () => {
    const first = new AnimatedModel(octopus);
    const view = fakeView(first);
    const sword = await view.attachments.attach(createSwordAsset(), 'head');
    const second = new AnimatedModel({ ...octopus, clips: octopus.clips.slice(0, 1) });
    second.evaluate(second.clipSample(0).at(1.1));
    view.host.animated = second;
    view.frame();
    const v = [0, 0.5, 0];
    const got = drawnPosition(view.drawn.at(-1)!, v), want = expectedPosition(second, sword.joint, sword.offset, v);
    for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThan(1e-6);
  });

  it('on another model finds the joint again by name, or drops the attachment with a warning', async () => {
    const view = fakeView(new AnimatedModel(octopus));
    const kept = await view.attachments.attach(createSwordAsset(), 'tentacle7_2');
    const lost = await view.attachments.attach(createSwordAsset(), 'tentacle7_5');
    // A model whose skeleton lacks tentacle7_5 and has tentacle7_2 elsewhere.
    const names = octopus.skeleton.names.map((n) => (n === 'tentacle7_5' ? 'tip' : n === 'tentacle7_2' ? 'x' : n === 'tentacle1_1' ? 'tentacle7_2' : n));
    const other = new AnimatedModel({ ...octopus, skeleton: { ...octopus.skeleton, names } });
    view.host.animated = other;
    view.frame();
    expect(view.attachments.list()).toEqual([kept]);
    expect(kept.joint).toBe(names.indexOf('tentacle7_2'));
    expect(view.attachments.onWarning).toHaveBeenCalledWith(`sword: dropped, ${octopus.name} has no joint "tentacle7_5" to hold it`);
    expect(lost.gpu).toBeNull();
    // The last one gone, the stage goes too.
    view.attachments.detach(kept);
    expect(view.stages).toHaveLength(0);
  });

  it('never uploads a prop again: its GPU model outlives a context restore (it restores itself, src/gpu/device/)', async () => {
    const view = fakeView(new AnimatedModel(octopus));
    await view.attachments.attach(createSwordAsset(), 'head');
    view.frame();
    view.frame();
    expect(view.drawn).toHaveLength(2);
    expect(view.renderer.uploads).toBe(1);
  });

  it('refuses an unknown joint naming the model and its joints, a bad offset, and attaching with no model shown', async () => {
    const view = fakeView(new AnimatedModel(octopus));
    await expect(view.attachments.attach(createSwordAsset(), 'hand_R')).rejects.toThrow(/^octopus \(built-in\): no joint "hand_R" to attach sword to \(joints: head, tentacle0_0, tentacle0_1, .*tentacle7_5\)$/);
    await expect(view.attachments.attach(createSwordAsset(), 99)).rejects.toThrow(RangeError);
    await expect(view.attachments.attach(createSwordAsset(), 'head', [1, 2, 3])).rejects.toThrow('offset: expected 16 finite numbers (a column-major 4×4 matrix), got 3');
    expect(() => offsetMatrix([0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/last row/);
    expect(() => offsetMatrix([NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/non-finite/);
    expect(view.attachments.list()).toEqual([]);
    view.host.animated = null;
    await expect(view.attachments.attach(createSwordAsset(), 'head')).rejects.toThrow('sword: no model is shown to attach it to');
  });
});
