/**
 * Hotspot costs for `npm run bench` (bench/run-bench.ts): one frame of five hotspots on Fox as
 * `<sinew-viewer>`'s hotspot stage computes them without the DOM — each `ModelPoint.place` (two joints, a joint
 * with an offset, a surface point, a model-space point) and, for each, `PointOcclusion.crossings` from an eye
 * that sees some of them and not others — with the clip moving on every frame.
 */
import type { ModelAsset } from '../src/asset/model-asset.ts';
import { AnimatedModel } from '../src/scene/animated-model.ts';
import { ModelPoint } from '../src/scene/model-point.ts';
import { PointOcclusion } from '../src/scene/point-occlusion.ts';

/** A frame function for Fox: places and occlusion-tests five hotspots at the next time step of its Walk clip. */
export function foxHotspotFrame(asset: ModelAsset): () => void {
  const model = new AnimatedModel(asset);
  const walk = Math.max(0, asset.clips.findIndex((c) => c.name === 'Walk'));
  const sample = model.clipSample(walk);
  const indices = asset.meshes[0].primitives[0].indices;
  const points = [
    new ModelPoint(model, { kind: 'joint', joint: 'b_Head_05', offset: [0, 0, 0], normal: null }),
    new ModelPoint(model, { kind: 'joint', joint: 'b_Tail03_014', offset: [0, 20, 0], normal: null }),
    new ModelPoint(model, { kind: 'joint', joint: 'b_LeftHand_011', offset: [0, 0, 0], normal: null }),
    new ModelPoint(model, { kind: 'surface', mesh: 0, primitive: 0, vertices: [indices[900], indices[901], indices[902]], weights: [0.2, 0.3, 0.5] }),
    new ModelPoint(model, { kind: 'position', position: [0, 40, 30], normal: [0, 1, 0] }),
  ];
  const allowed = points.map((p) => (p.spec.kind === 'joint' ? 1 : 0));
  const occlusion = new PointOcclusion(model);
  const eye = new Float64Array([150, 60, 200]);
  const duration = asset.clips[walk]?.duration ?? 1;
  let time = 0;
  return () => {
    time = (time + 1 / 60) % duration;
    model.evaluate(sample.at(time));
    for (let i = 0; i < points.length; i++) {
      const point = points[i];
      point.place();
      const w = point.worldPosition, n = point.worldNormal;
      const facing = !point.hasNormal || n[0] * (eye[0] - w[0]) + n[1] * (eye[1] - w[1]) + n[2] * (eye[2] - w[2]) >= 0;
      if (facing) occlusion.crossings(eye, w, allowed[i] + 1);
    }
  };
}
