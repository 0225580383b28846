import { describe, expect, it } from 'vitest';
import { Animator } from '../../../src/animation/animator.ts';
import { AnimationGraph } from '../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../../../src/animation/graph/animation-graph-driver.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { JOINTS, locomotionGraph, phaseClip } from '../animation/graph/graph-fixtures.ts';

// <sinew-viewer>'s animator is made with the model, before a graph arrives: `reserveClipsPerLayer` grows it so an
// AnimationGraphDriver takes it, and the pose is then the same as on an animator made for the graph.

describe('Animator.reserveClipsPerLayer', () => {
  it('grows every layer, never shrinks, keeps what plays; a driver then takes the animator', () => {
    const clips = [phaseClip('Walk', 1, 1), phaseClip('Run', 0.6, 2)];
    const graph = new AnimationGraph(locomotionGraph(), clips);
    const grown = new Animator(JOINTS);
    grown.addLayer();
    grown.play(clips[0], { layer: 1 });
    expect(grown.maxClipsPerLayer).toBe(4);
    expect(graph.maxClipsPerLayer()).toBeGreaterThan(4);
    expect(() => new AnimationGraphDriver(graph, grown)).toThrow(RangeError);
    grown.reserveClipsPerLayer(graph.maxClipsPerLayer());
    grown.reserveClipsPerLayer(2);
    expect(grown.maxClipsPerLayer).toBe(graph.maxClipsPerLayer());
    expect(grown.activeClipCount(1)).toBe(1);
    grown.stop(1);

    const made = new Animator(JOINTS, { maxClipsPerLayer: graph.maxClipsPerLayer() });
    const a = new AnimationGraphDriver(graph, grown), b = new AnimationGraphDriver(graph, made);
    graph.setParameter(a.state, 'speed', 0.5);
    graph.setParameter(b.state, 'speed', 0.5);
    const rest = createLocalPose(JOINTS), pa = createLocalPose(JOINTS), pb = createLocalPose(JOINTS);
    for (let f = 0; f < 90; f++) {
      a.update(1 / 60);
      b.update(1 / 60);
      grown.evaluate(pa, rest);
      made.evaluate(pb, rest);
      expect(Array.from(pa.translations)).toEqual(Array.from(pb.translations));
    }
    expect(pa.translations[1]).toBeCloseTo(1.5, 5); // Walk (y 1) and Run (y 2) half and half
  });
});
