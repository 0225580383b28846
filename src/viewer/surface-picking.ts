import type { AnimatedModel } from '../scene/animated-model.ts';
import { blendHitWeights } from '../scene/hit-weights.ts';
import { createRay, createSurfaceHit, PickContext, pickModel } from '../scene/pick-model.ts';
import type { ModelView } from '../view/model-view.ts';
import { cssToBuffer, PixelRays } from '../view/pixel-ray.ts';

/**
 * Clicking the model in the viewer: the skinned surface under the pointer as the last frame drew it
 * (`pickModel` through `PixelRays`, the frame's own camera, pose and skinning method), its dominant joint to
 * select, and the hit's influences — joint names and barycentric-blended weights (`blendHitWeights`) — in a tip
 * beside the pointer (`#sinew-surface-tip`; its `data-joint` holds the joint's skeleton index and
 * `data-weights` the list as JSON `[{ "joint", "name", "weight" }]`, heaviest first, for tests and tools).
 * The pick context is made once per model shown (at its first click).
 */
export class SurfacePicking {
  readonly element: HTMLElement;
  private context: PickContext | null = null;
  private readonly rays = new PixelRays();
  private readonly ray = createRay();
  private readonly hit = createSurfaceHit();
  private readonly at = new Float64Array(2);
  private joints = new Int32Array(12);
  private weights = new Float64Array(12);

  constructor(private readonly view: ModelView, private readonly canvas: HTMLCanvasElement, parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.id = 'sinew-surface-tip';
    this.element.setAttribute('role', 'status');
    this.element.hidden = true;
    parent.append(this.element);
  }

  /**
   * Picks the surface at the page point (clientX, clientY), CSS pixels. On a hit shows the influences there
   * and returns the dominant joint's skeleton index; on a miss (or before a frame is drawn) hides the tip and
   * returns −1.
   */
  click(clientX: number, clientY: number): number {
    const rect = this.canvas.getBoundingClientRect();
    const picked = this.view.inspect((frame) => {
      const model = frame.animated;
      cssToBuffer(this.at, clientX - rect.left, clientY - rect.top, Math.max(rect.width, 1), Math.max(rect.height, 1), frame.width, frame.height);
      this.rays.through(this.ray, frame.camera, frame.width, frame.height, this.at[0], this.at[1]);
      return pickModel(model, this.ray, this.hit, this.contextFor(model), frame.method) ? model : null;
    });
    if (!picked) {
      this.hide();
      return -1;
    }
    const n = blendHitWeights(picked.asset, this.hit, this.joints, this.weights);
    const names = picked.asset.skeleton.names;
    const list = Array.from({ length: n }, (_, i) => ({ joint: this.joints[i], name: names[this.joints[i]] || `joint ${this.joints[i]}`, weight: this.weights[i] }));
    this.element.textContent = list.map((e) => `${e.name}  ${(100 * e.weight).toFixed(1)}%`).join('\n');
    this.element.dataset.joint = String(this.hit.joint);
    this.element.dataset.weights = JSON.stringify(list);
    this.element.style.transform = `translate(${Math.round(clientX + 12)}px, ${Math.round(clientY + 12)}px)`;
    this.element.hidden = false;
    return this.hit.joint;
  }

  hide(): void {
    this.element.hidden = true;
  }

  private contextFor(model: AnimatedModel): PickContext {
    if (this.context?.model !== model) {
      this.context = new PickContext(model);
      this.joints = new Int32Array(this.context.hitJoints.length);
      this.weights = new Float64Array(this.context.hitWeights.length);
    }
    return this.context;
  }
}
