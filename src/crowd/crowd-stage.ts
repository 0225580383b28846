import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../asset/model-asset.ts';
import { uploadModel, type GpuModel } from '../gpu/skinning/gpu-model.ts';
import { ContactShadow, type ContactShadowSettings, type ShadowCaster } from '../gpu/passes/contact-shadow.ts';
import { GpuInstances, type InstancedDrawStats } from './gpu/instance-draw.ts';
import { drawCrowd } from './gpu/crowd-pass.ts';
import type { CrowdItem } from './gpu/crowd-item.ts';
import { SkinnedRenderer, type CameraMatrices } from '../gpu/passes/renderer.ts';
import { computeModelBounds } from '../scene/model-bounds.ts';
import { OrbitCamera } from '../scene/orbit-camera.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import { Crowd, type CrowdMode, type CrowdProp } from './crowd.ts';

/** What one {@link CrowdStage.frame} did and how long its CPU parts took. */
export interface CrowdFrameStats extends InstancedDrawStats {
  /** Milliseconds in `Crowd.update` + `Crowd.prepare` (time, poses or frame picks, bounds, culling, packing). */
  animMs: number;
  /** Milliseconds issuing GL calls: the instance texture upload and the instanced draws. */
  submitMs: number;
  /** Instances drawn after culling. */
  drawn: number;
}

/**
 * A crowd on a grid in one WebGL2 context, for the crowd demo page (`crowd.html`) and the benchmark page
 * (`dist/bench/crowd-bench.html`): N instances of one model laid out in rows on the ground plane, each playing
 * clip `i mod clips` from a staggered time at its own speed, seen by an {@link OrbitCamera} framed on the grid.
 * Owns its renderer, GPU model and instance textures ({@link dispose}).
 */
export class CrowdStage {
  readonly crowd: Crowd;
  readonly camera = new OrbitCamera();
  readonly renderer: SkinnedRenderer;
  private readonly gpuModel: GpuModel;
  private readonly instances: GpuInstances;
  /** What the crowd's pass draws: the model, its instance textures and the crowd's blocks. */
  private readonly item: CrowdItem;
  private readonly spacing: number;
  private readonly lift: number;
  private readonly centre: [number, number];
  private readonly height: number;
  private readonly world = new Float32Array(16);
  private readonly stats: CrowdFrameStats = { drawCalls: 0, verts: 0, animMs: 0, submitMs: 0, drawn: 0 };
  /**
   * False: vertices are shaded but nothing is rasterised (RASTERIZER_DISCARD), to measure what vertex shading
   * alone costs (the bench's vertex share). Default true.
   */
  rasterize = true;
  /**
   * The crowd's contact shadow on the ground (model-viewer's `shadow-intensity` / `shadow-softness`), drawn
   * from the instanced skinned draw itself; intensity 0 (the default) draws none.
   */
  readonly shadow: ContactShadowSettings = { intensity: 0, softness: 1 };
  private readonly contactShadow = new ContactShadow();
  private readonly shadowBox = { min: [0, 0, 0] as [number, number, number], max: [0, 0, 0] as [number, number, number] };
  private readonly caster: ShadowCaster & { width: number; height: number };

  /**
   * @param capacity most instances {@link setCount} accepts
   * @param method the crowd's skinning mode and weight policy (`CrowdOptions.method`), default LBS, normalised
   * @param props what every instance carries (`CrowdOptions.props`), default none
   * @throws Error when the context is lost or the model has no mesh; RangeError from `withProp` for a bad prop
   */
  constructor(gl: WebGL2RenderingContext, asset: ModelAsset, capacity: number, mode: CrowdMode = 'live', method: SkinningMethod = DEFAULT_SKINNING_METHOD, props: readonly CrowdProp[] = []) {
    if (asset.meshInstances.length === 0) throw new Error(`${asset.name}: has no mesh to draw as a crowd`);
    this.renderer = new SkinnedRenderer(gl);
    this.crowd = new Crowd(asset, { capacity, mode, method, props });
    asset = this.crowd.asset;
    this.gpuModel = uploadModel(gl, asset);
    this.instances = new GpuInstances(gl);
    this.item = { gpuModel: this.gpuModel, instances: this.instances, blocks: this.crowd };
    const { min, max } = computeModelBounds(asset, this.crowd.model);
    this.spacing = 1.25 * Math.max(max[0] - min[0], max[2] - min[2], 0.5 * (max[1] - min[1]), 1e-3);
    this.lift = -min[1];
    this.centre = [0.5 * (min[0] + max[0]), 0.5 * (min[2] + max[2])];
    this.height = max[1] - min[1];
    this.camera.pitch = 0.55;
    this.camera.yaw = 0.35;
    const stage = this;
    this.caster = {
      renderer: this.renderer, camera: this.camera, width: 0, height: 0,
      drawDepth(camera: CameraMatrices): void {
        drawCrowd(stage.renderer, stage.item, camera);
      },
      restoreCamera(): void {
        // The crowd's draw folds its camera itself: nothing drawn after the ground reads the renderer's camera.
      },
    };
  }

  /** Settles when the model's textures are uploaded. */
  get texturesReady(): Promise<void> {
    return this.gpuModel.texturesReady;
  }

  /**
   * Lays out `count` instances on a ⌈√count⌉-column grid (replacing any before), clip `i mod clips`, time
   * staggered, speed 0.8–1.2, and frames the camera on the grid for `aspect`.
   * @throws RangeError when `count` exceeds the crowd's capacity
   */
  setCount(count: number, aspect = 1): void {
    const crowd = this.crowd;
    if (count > crowd.capacity) throw new RangeError(`CrowdStage: ${count} instances exceed the capacity ${crowd.capacity}`);
    crowd.count = 0;
    const columns = Math.max(1, Math.ceil(Math.sqrt(count))), rows = Math.max(1, Math.ceil(count / columns));
    const clips = crowd.model.clips, s = this.spacing, w = this.world;
    w.fill(0);
    w[0] = w[5] = w[10] = w[15] = 1;
    for (let i = 0; i < count; i++) {
      const column = i % columns, row = Math.floor(i / columns);
      w[12] = (column - 0.5 * (columns - 1)) * s - this.centre[0];
      w[13] = this.lift;
      w[14] = (row - 0.5 * (rows - 1)) * s - this.centre[1];
      const clip = clips.length ? i % clips.length : -1;
      const golden = (i * 0.618034) % 1;
      crowd.add(clip, clip >= 0 ? clips[clip].duration * golden : 0, 0.8 + 0.4 * golden, w);
    }
    const halfX = 0.5 * columns * s, halfZ = 0.5 * rows * s;
    this.camera.frame({ min: [-halfX, 0, -halfZ], max: [halfX, this.height, halfZ] }, aspect);
  }

  /**
   * Every instance also plays the clip after its own (`Crowd.blend`), from the same place in it, at `weight`
   * ∈ [0, 1] (0: its own clip alone). Needs two clips or more; with fewer it does nothing.
   */
  setBlend(weight: number): void {
    const crowd = this.crowd, clips = crowd.model.clips;
    if (clips.length < 2) return;
    for (let k = 0; k < crowd.count; k++) {
      const own = crowd.clipIndices[k], other = (own + 1) % clips.length;
      crowd.blend(k, other, clips[other].duration * (own >= 0 ? crowd.times[k] / Math.max(clips[own].duration, 1e-9) : 0), weight, crowd.speeds[k]);
    }
  }

  /** Switches live / baked (baking the clips on first use of baked mode). */
  setMode(mode: CrowdMode): void {
    this.crowd.mode = mode;
    if (mode === 'baked') this.crowd.bakedClipsOrBake();
  }

  /**
   * Advances every instance by `dt` seconds and draws the crowd into the `width × height` viewport (cleared
   * first). Returns the frame's stats (the same object each call).
   */
  frame(dt: number, width: number, height: number): CrowdFrameStats {
    const stats = this.stats, camera = this.camera, renderer = this.renderer;
    camera.update(width / Math.max(1, height));
    const t0 = performance.now();
    this.crowd.update(dt);
    stats.drawn = this.crowd.prepare(mat4.multiply(this.viewProjection, camera.projection, camera.view));
    const t1 = performance.now();
    renderer.beginFrame(width, height);
    if (!this.rasterize) renderer.gl.enable(renderer.gl.RASTERIZER_DISCARD);
    drawCrowd(renderer, this.item, camera, stats);
    if (this.rasterize && this.shadow.intensity > 0 && stats.drawn > 0) this.drawShadow(width, height);
    if (!this.rasterize) renderer.gl.disable(renderer.gl.RASTERIZER_DISCARD);
    stats.submitMs = performance.now() - t1;
    stats.animMs = t1 - t0;
    return stats;
  }

  private readonly viewProjection = new Float32Array(16);

  /** The contact shadow under the drawn instances' world box, from the blocks this frame uploaded. */
  private drawShadow(width: number, height: number): void {
    const crowd = this.crowd, wb = crowd.worldBounds, { min, max } = this.shadowBox;
    min[0] = min[1] = min[2] = Infinity;
    max[0] = max[1] = max[2] = -Infinity;
    for (let k = 0; k < crowd.count; k++) {
      for (let a = 0; a < 3; a++) {
        min[a] = Math.min(min[a], wb[6 * k + a]);
        max[a] = Math.max(max[a], wb[6 * k + 3 + a]);
      }
    }
    if (!(min[0] <= max[0])) return;
    // One character's share of the square as model-viewer gives a single model: the map grows with the crowd's
    // span (capped by the GPU), so each character keeps a shadow of its own.
    const span = Math.max(max[0] - min[0], max[2] - min[2]);
    const scale = Math.min(8, Math.max(1, span / (2 * this.spacing)));
    this.caster.width = width;
    this.caster.height = height;
    this.contactShadow.draw(this.caster, this.shadowBox, this.shadow, true, scale);
  }

  /** Frees the GPU model, instance textures, the shadow's targets and the renderer's programs. */
  dispose(): void {
    this.contactShadow.dispose();
    this.instances.dispose();
    this.gpuModel.dispose();
    this.renderer.dispose();
  }
}
