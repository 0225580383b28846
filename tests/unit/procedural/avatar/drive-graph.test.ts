import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import { loadModel } from '../../../../src/loaders/load-model.ts';
import { loadClips } from '../../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../../src/loaders/clip-library.ts';
import { readAnimationGraph } from '../../../../src/loaders/animation-graph/read-animation-graph.ts';
import { AnimationGraph } from '../../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../../../../src/animation/graph/animation-graph-driver.ts';
import { AnimationEventList } from '../../../../src/animation/animation-events.ts';
import { Animator } from '../../../../src/animation/animator.ts';
import { compileClip, type RuntimeClip } from '../../../../src/animation/runtime-clip.ts';
import { findMotionRoot } from '../../../../src/animation/root-motion.ts';
import { createLocalPose } from '../../../../src/skeleton/local-pose.ts';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { LOCOMOTION_CLIPS } from '../../../../src/procedural/avatar/avatar-locomotion.ts';
import { buildLocomotionVrma } from '../../../../src/procedural/avatar/locomotion-vrma.ts';
import { DRIVE_GRAPH, driveGraphJson } from '../../../../src/procedural/avatar/drive-graph.ts';

// The Drive example's graph on the generated avatar's locomotion clips: it reads without warnings, the speed
// parameter moves the character at that speed at the tree's points, Walk's and Run's foot markers stay within a
// frame of each other through a speed ramp, and a jump trigger plays Jump once and lands back in Locomotion.

const none = async (): Promise<null> => null;
const DT = 1 / 60;
let avatar: ModelAsset;
let clips: RuntimeClip[];

beforeAll(async () => {
  const base = await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1({ texture: false }) }, none);
  const added = [];
  for (const name of LOCOMOTION_CLIPS) {
    added.push(...retargetClipLibrary(await loadClips({ name: `${name.toLowerCase()}.vrma`, bytes: await buildLocomotionVrma(name) }, none), base).clips);
  }
  avatar = { ...base, clips: added };
  clips = added.map((clip) => compileClip(clip, base.skeleton.jointCount));
}, 60_000);

function drive(): { graph: AnimationGraph; driver: AnimationGraphDriver; animator: Animator; frame: (events?: AnimationEventList) => void } {
  const { graph: asset, warnings } = readAnimationGraph(driveGraphJson(), { file: 'drive.json', clipNames: clips.map((c) => c.name) });
  expect(warnings).toEqual([]);
  const graph = new AnimationGraph(asset, clips);
  const n = avatar.skeleton.jointCount;
  const animator = new Animator(n, { maxClipsPerLayer: graph.maxClipsPerLayer(), motionRoot: findMotionRoot(avatar.skeleton, avatar.restPose, clips) });
  animator.rootMotion = 'applied';
  const driver = new AnimationGraphDriver(graph, animator);
  const pose = createLocalPose(n);
  return { graph, driver, animator, frame: (events) => { driver.update(DT, events ?? null); animator.evaluate(pose, avatar.restPose); } };
}

describe('the Drive graph', () => {
  it('is the JSON the gallery writes', () => {
    expect(JSON.parse(driveGraphJson())).toEqual(JSON.parse(JSON.stringify(DRIVE_GRAPH)));
  });

  it('moves the character at the speed parameter at the tree points (Walk 1.4, Run 3.5 m/s), forward along +Z', () => {
    for (const speed of [1.4, 3.5]) {
      const { graph, driver, animator, frame } = drive();
      graph.setParameter(driver.state, 'speed', speed);
      for (let f = 0; f < 60; f++) frame();
      expect(graph.activeState(driver.state)).toBe('Locomotion');
      const z0 = animator.placement[1];
      for (let f = 0; f < 120; f++) frame();
      expect((animator.placement[1] - z0) / (120 * DT), `speed ${speed}`).toBeCloseTo(speed, 1);
      expect(Math.abs(animator.placement[0])).toBeLessThan(1e-3);
    }
  });

  it('keeps Walk and Run foot markers within one frame of each other through a ramp from walk to run', () => {
    const { graph, driver, frame } = drive();
    const events = new AnimationEventList();
    const feet = new Map<string, string[]>([['Walk', []], ['Run', []]]);
    const frames = new Map<string, number[]>([['Walk', []], ['Run', []]]);
    for (let f = 0; f < 400; f++) {
      graph.setParameter(driver.state, 'speed', 1.6 + (1.7 * f) / 400);
      frame(events);
      for (let i = 0; i < events.length; i++) {
        const e = events.events[i];
        if (e.type === 'marker' && e.clip && feet.has(e.clip.name)) { feet.get(e.clip.name)!.push(e.name!); frames.get(e.clip.name)!.push(f); }
      }
    }
    expect(feet.get('Walk')!.length).toBeGreaterThan(6);
    expect(feet.get('Walk')).toEqual(feet.get('Run'));
    frames.get('Walk')!.forEach((f, i) => expect(Math.abs(f - frames.get('Run')![i]), `marker ${i}`).toBeLessThanOrEqual(1));
  });

  it('jumps once on the trigger and lands back in Locomotion', () => {
    const { graph, driver, frame } = drive();
    const events = new AnimationEventList();
    const entered: string[] = [];
    graph.setParameter(driver.state, 'speed', 1.4);
    for (let f = 0; f < 150; f++) {
      if (f === 30) graph.setParameter(driver.state, 'jump', true);
      frame(events);
      for (let i = 0; i < events.length; i++) if (events.events[i].type === 'state-enter') entered.push(events.events[i].name!);
    }
    expect(entered).toEqual(['Locomotion', 'Jump', 'Locomotion']);
    expect(graph.getParameter(driver.state, 'jump')).toBe(0);
  });
});
