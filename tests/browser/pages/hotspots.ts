// Harness for tests/browser/element/hotspots.spec.ts: where the hotspots of a <sinew-viewer> should be, computed
// independently of the element's hotspot code — the model loaded again, the clip sampled at the element's time,
// joints by AnimatedModel.jointMatrix, the surface by skinning the whole mesh (skinVertices without a vertex
// list) and blending, then projected with the camera of the frame the element drew.
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import type { ModelView } from '../../../src/view/model-view.ts';
import { loadGltf } from '../helpers/load-gltf.ts';

/** What a hotspot follows, as the test states it. */
export type ExpectedSpec =
  | { name: string; joint: string; offset: [number, number, number] }
  | { name: string; surface: [number, number, number, number, number, number, number, number] }
  | { name: string; position: [number, number, number] };

/** Where a hotspot's point projects: CSS pixels from the page's top-left corner, and whether it is in front. */
export interface ExpectedPoint {
  name: string;
  x: number;
  y: number;
  /** The point in world (display) space. */
  world: [number, number, number];
}

const assets = new Map<string, Promise<ModelAsset>>();

async function expectedPoints(id: string, specs: ExpectedSpec[]): Promise<ExpectedPoint[]> {
  const el = document.getElementById(id) as HTMLElementTagNameMap['sinew-viewer'];
  const url = el.getAttribute('src')!;
  if (!assets.has(url)) assets.set(url, loadGltf(url));
  const asset = await assets.get(url)!;
  const model = new AnimatedModel(asset);
  const clip = asset.clips.findIndex((c) => c.name === el.animationName);
  model.evaluate(model.clipSample(clip).at(el.currentTime));
  // The camera and display matrix of the last frame the element drew (test-only access to its view).
  const view = (el as unknown as { view: ModelView }).view;
  const camera = view.inspect((frame) => ({
    view: [...frame.camera.view], projection: [...frame.camera.projection], display: [...frame.displayMatrix],
  }))!;
  model.world.set(camera.display);
  const rect = el.shadowRoot!.querySelector('canvas')!.getBoundingClientRect();
  const O = model.origin;
  const apply = (m: ArrayLike<number>, p: number[]): number[] => [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * (p[3] ?? 1));
  return specs.map((spec) => {
    let world: number[];
    if ('joint' in spec) {
      const m = model.jointMatrix(spec.joint, new Float64Array(16));
      world = apply(m, spec.offset).slice(0, 3);
    } else if ('surface' in spec) {
      const [mesh, prim, a, b, c, u, v, w] = spec.surface;
      const instance = asset.meshInstances.find((i) => i.mesh === mesh)!;
      const primitive = asset.meshes[mesh].primitives.find((p, i) => (p.sourceIndex ?? i) === prim)!;
      const out = new Float32Array(3 * primitive.vertexCount);
      skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
      const p = [0, 1, 2].map((k) => u * (out[3 * a + k] + O[k]) + v * (out[3 * b + k] + O[k]) + w * (out[3 * c + k] + O[k]));
      world = apply(model.world, p).slice(0, 3);
    } else {
      world = apply(model.world, spec.position).slice(0, 3);
    }
    const eye = apply(camera.view, world);
    const clipSpace = apply(camera.projection, eye);
    const ndcX = clipSpace[0] / clipSpace[3], ndcY = clipSpace[1] / clipSpace[3];
    return {
      name: spec.name, world: world as [number, number, number],
      x: rect.left + ((ndcX + 1) / 2) * rect.width, y: rect.top + ((1 - ndcY) / 2) * rect.height,
    };
  });
}

/** World-space box of the element's model as posed at its current time: [min, max]. */
async function bounds(id: string): Promise<[number[], number[]]> {
  const el = document.getElementById(id) as HTMLElementTagNameMap['sinew-viewer'];
  const url = el.getAttribute('src')!;
  if (!assets.has(url)) assets.set(url, loadGltf(url));
  const asset = await assets.get(url)!;
  const model = new AnimatedModel(asset);
  model.evaluate(model.clipSample(asset.clips.findIndex((c) => c.name === el.animationName)).at(el.currentTime));
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  asset.meshInstances.forEach((instance) => {
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      const out = new Float32Array(3 * primitive.vertexCount);
      skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
      for (let v = 0; v < out.length; v += 3) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], out[v + k] + model.origin[k]);
          max[k] = Math.max(max[k], out[v + k] + model.origin[k]);
        }
      }
    }
  });
  return [min, max];
}

/** Triangle `t`'s vertex indices in mesh 0's primitive 0 of the element's model. */
async function triangle(id: string, t: number): Promise<number[]> {
  const el = document.getElementById(id)!;
  const url = el.getAttribute('src')!;
  if (!assets.has(url)) assets.set(url, loadGltf(url));
  const indices = (await assets.get(url)!).meshes[0].primitives[0].indices;
  return [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]];
}

(window as unknown as { hotspotsTest: unknown }).hotspotsTest = { expectedPoints, triangle, bounds };
