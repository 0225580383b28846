import type { ModelAsset } from '../asset/model-asset.ts';
import type { GpuModel } from '../gpu/skinning/gpu-model.ts';
import type { SkinnedRenderer } from '../gpu/passes/renderer.ts';
import { createRenderItem, type RenderItem } from '../gpu/passes/render-item.ts';
import { loadModelFromFiles } from '../loaders/fetch/load-model-from-files.ts';
import { loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { propMatrix, splitDisplayTranslation } from '../scene/prop-placement.ts';
import type { PoseBuffers } from '../skeleton/pose-buffers.ts';
import { didYouMeanJoint, type Skeleton } from '../skeleton/skeleton.ts';
import { messageOf } from '../errors/message-of.ts';
import type { FrameStage, ViewFrame } from './view-frame.ts';

/**
 * A prop model to attach: an asset already loaded, a URL (`loadModelFromUrl`), dropped or picked files
 * (`loadModelFromFiles`), or a function that loads one.
 */
export type PropSource = ModelAsset | string | readonly File[] | (() => Promise<ModelAsset>);

/** What {@link ViewAttachments} needs of its view (`ModelView` is one). */
export interface AttachmentHost {
  /** Adds a stage run after the model in every frame; returns its remover. */
  addStage(stage: FrameStage): () => void;
  /** The shown model's CPU state, or null before the first model. */
  readonly animated: AnimatedModel | null;
  requestRedraw(): void;
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * `offset` as a `Float64Array(16)` (column-major), identity when absent.
 * @throws RangeError when it is not 16 finite numbers or its last row is not (0, 0, 0, 1)
 */
export function offsetMatrix(offset: ArrayLike<number> | undefined, what = 'offset'): Float64Array {
  const m = Float64Array.from(offset ?? IDENTITY);
  if (m.length !== 16 || !m.every(Number.isFinite)) throw new RangeError(`${what}: expected 16 finite numbers (a column-major 4×4 matrix), got ${m.length === 16 ? 'a non-finite one' : m.length}`);
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) throw new RangeError(`${what}: the last row must be (0, 0, 0, 1), an affine transform`);
  return m;
}

/**
 * One prop drawn on a joint of the shown model ({@link ViewAttachments.attach}): its own model, posed by its
 * own {@link animated} (the rest pose unless the owner plays one of its clips), drawn each frame at
 * `world · T(O) · Mⱼ · offset` of the character's pose of that frame (`propMatrix`).
 */
export class Attachment {
  /** The prop's model. */
  readonly asset: ModelAsset;
  /**
   * The prop's pose, evaluated from its own animator every frame before it is drawn: play a clip with
   * `animated.animator.play(animated.clips[i], …)` and move it on with `animator.update(dt)` to animate a prop.
   */
  readonly animated: AnimatedModel;
  /**
   * `Float64Array(16)`, column-major: the prop's model space → the joint's frame, in the character's units (metres
   * for glTF). Change it in place; the next frame draws with it.
   */
  readonly offset: Float64Array;
  /** Whether it is drawn; default true. */
  visible = true;
  /** Joint name the attachment was made with (re-resolved on another model); empty for an unnamed joint. */
  private jointNameValue: string;
  /** Skeleton index of the joint on the shown model. */
  private jointValue: number;
  /** @internal the GL side, null until uploaded (its resources restore themselves after a context loss). */
  gpu: GpuModel | null = null;
  /** @internal an upload in flight. */
  uploading = false;
  /** @internal scratch: the prop's display matrix in f64, then its float32 split and the pose the renderer reads. */
  readonly display64 = new Float64Array(16);
  readonly display32 = new Float32Array(16);
  /** What the view draws of the prop (its GPU model, pose and `display32`; the `auto` palette request), made on first draw. */
  item: RenderItem | null = null;
  readonly pose: PoseBuffers & { readonly origin: Float64Array };

  constructor(asset: ModelAsset, animated: AnimatedModel, joint: number, jointName: string, offset: Float64Array) {
    this.asset = asset;
    this.animated = animated;
    this.offset = offset;
    this.jointValue = joint;
    this.jointNameValue = jointName;
    this.pose = { modelMatrices: animated.modelMatrices, skinMatrices: animated.skinMatrices, morphWeights: animated.morphWeights, origin: new Float64Array(3) };
  }

  /** Skeleton index of the joint it rides on, in the model shown. */
  get joint(): number {
    return this.jointValue;
  }

  /** Name of that joint (empty when the joint has none). */
  get jointName(): string {
    return this.jointNameValue;
  }

  /** @internal */
  setJoint(joint: number, name: string): void {
    this.jointValue = joint;
    this.jointNameValue = name;
  }
}

/**
 * The props a view draws on the joints of its model (`view.attachments`): each an {@link Attachment}, drawn by
 * one {@link FrameStage} right after the model in the same frame and context, from the pose that frame drew —
 * no frame of lag. The character is read from each frame (`ViewFrame.animated`), never kept, so added clips
 * (which replace the `AnimatedModel`) change nothing. On another model, each attachment finds its joint again
 * by name, or is dropped with a warning; after a context restore each prop's GL objects restore themselves (drawn from the
 * next frame on). Frames allocate nothing.
 */
export class ViewAttachments implements FrameStage {
  /**
   * Told of each attachment dropped (its joint missing on a new model, a draw or upload failure), with the
   * reason; default `console.warn`.
   */
  onWarning: (message: string) => void = (message) => console.warn(message);
  /** Told after the list changed (attached, detached, dropped, moved to another joint). */
  onChange: (() => void) | null = null;
  private readonly attachments: Attachment[] = [];
  private removeStage: (() => void) | null = null;
  /** The skeleton the attachments' joint indices refer to. */
  private skeleton: Skeleton | null = null;
  private disposed = false;

  /**
   * @param host the view drawing the model
   * @param rendererOf the view's renderer (null without WebGL2), for uploads outside a frame
   */
  constructor(private readonly host: AttachmentHost, private readonly rendererOf: () => SkinnedRenderer | null) {}

  /**
   * Loads `source` (a LoadError if it cannot be read; the character stays), uploads it with the view's
   * renderer and draws it from the next frame on at `jointMatrix(joint) · offset`.
   * @param joint a joint of the shown model: its name, or its skeleton index
   * @param offset 16 numbers, column-major (`Float64Array(16)` or an array): the prop's model space → the
   *   joint's frame, in the character's units (metres for glTF); default identity
   * @throws (rejects) Error when no model is shown; RangeError naming the model and listing its joints for an
   *   unknown joint, or for a malformed offset; LoadError when the prop cannot be loaded; Error when it cannot be
   *   uploaded (the view's context is lost, a shader fails)
   */
  async attach(source: PropSource, joint: string | number, offset?: ArrayLike<number>): Promise<Attachment> {
    const matrix = offsetMatrix(offset);
    const named = typeof source === 'string' ? source : typeof source === 'object' && 'skeleton' in source ? source.name : 'the prop';
    this.resolveOrThrow(joint, named);
    const asset = typeof source === 'function' ? await source()
      : typeof source === 'string' ? await loadModelFromUrl(source, { baseUrl: document.baseURI })
        : Array.isArray(source) ? await loadModelFromFiles(source as readonly File[]) : source as ModelAsset;
    if (this.disposed) throw new Error(`${asset.name}: the view was disposed`);
    // The model may have changed while the prop loaded: resolve again.
    let index = this.resolveOrThrow(joint, asset.name);
    const animated = new AnimatedModel(asset);
    const attachment = new Attachment(asset, animated, index, this.host.animated!.asset.skeleton.names[index] ?? '', matrix);
    const renderer = this.rendererOf();
    if (renderer) {
      attachment.gpu = await renderer.upload(asset, 'auto');
      if (this.disposed) {
        attachment.gpu.dispose();
        throw new Error(`${asset.name}: the view was disposed`);
      }
    }
    // The shown model may have changed during the upload too.
    this.sync(this.host.animated!);
    index = this.resolveOrThrow(joint, asset.name);
    attachment.setJoint(index, this.host.animated!.asset.skeleton.names[index] ?? '');
    this.attachments.push(attachment);
    this.removeStage ??= this.host.addStage(this);
    this.changed();
    return attachment;
  }

  /** Removes `attachment` (frees its GL side); false when it is not attached here. */
  detach(attachment: Attachment): boolean {
    const i = this.attachments.indexOf(attachment);
    if (i < 0) return false;
    this.attachments.splice(i, 1);
    attachment.gpu?.dispose();
    attachment.gpu = null;
    if (this.attachments.length === 0) this.stopDrawing();
    this.changed();
    return true;
  }

  /** Removes every attachment. */
  clear(): void {
    for (const attachment of [...this.attachments]) this.detach(attachment);
  }

  /** The attachments, in the order drawn. */
  list(): readonly Attachment[] {
    return this.attachments.slice();
  }

  /**
   * Moves `attachment` to another joint of the shown model.
   * @throws RangeError naming the model and listing its joints for an unknown joint
   */
  setJoint(attachment: Attachment, joint: string | number): void {
    const index = this.resolveOrThrow(joint, attachment.asset.name);
    this.sync(this.host.animated!);
    attachment.setJoint(index, this.host.animated!.asset.skeleton.names[index] ?? '');
    this.changed();
  }

  /** Frees every attachment's GL side; afterwards `attach` rejects. Idempotent. */
  dispose(): void {
    this.disposed = true;
    for (const attachment of this.attachments) attachment.gpu?.dispose();
    this.attachments.length = 0;
    this.stopDrawing();
  }

  /** {@link FrameStage}: draws each prop at its joint in this frame's pose. */
  afterDraw(frame: ViewFrame): void {
    const character = frame.animated, renderer = frame.renderer;
    this.sync(character);
    const list = this.attachments;
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      if (!a.visible) continue;
      if (!a.gpu) continue;
      try {
        a.animated.evaluate(a.animated.animator);
        propMatrix(character, a.joint, a.offset, a.display64);
        // A rigid prop's translation goes through the renderer's f64 origin fold, so a prop on a character far
        // from the origin keeps its place to the float32 precision of its own size. A skinned prop keeps its
        // origin: the shader reads it (u_origin) for vertices without weight.
        if (a.asset.skins.length > 0 || !splitDisplayTranslation(a.display64, a.animated.origin, a.display32, a.pose.origin)) {
          for (let k = 0; k < 16; k++) a.display32[k] = a.display64[k];
          a.pose.origin.set(a.animated.origin);
        }
        const item = a.item ??= { ...createRenderItem(a.gpu, a.pose, a.display32), paletteRequest: 'auto' };
        item.gpuModel = a.gpu;
        item.method = frame.method;
        renderer.draw(item, frame.camera);
      } catch (e) {
        this.drop(a, `${a.asset.name}: not drawn on ${character.asset.name} any more: ${messageOf(e)}`);
        i--;
      }
    }
  }

  /** The joint index of `joint` on the shown model. @throws as {@link attach} */
  private resolveOrThrow(joint: string | number, prop: string): number {
    const character = this.host.animated;
    if (!character) throw new Error(`${prop}: no model is shown to attach it to`);
    const skeleton = character.asset.skeleton;
    const index = typeof joint === 'number' ? joint : skeleton.names.indexOf(joint);
    if (!Number.isInteger(index) || index < 0 || index >= skeleton.jointCount) {
      const names = skeleton.names.filter((n) => n !== '');
      throw new RangeError(`${character.asset.name}: no joint ${typeof joint === 'number' ? joint : JSON.stringify(joint)} to attach ${prop} to (${didYouMeanJoint(skeleton, joint)}joints: ${names.length > 0 ? names.join(', ') : `0 to ${skeleton.jointCount - 1}, unnamed`})`);
    }
    return index;
  }

  /**
   * When another model is shown: each attachment finds its joint by name (an unnamed one by index) or is
   * dropped with a warning.
   */
  private sync(character: AnimatedModel): void {
    const skeleton = character.asset.skeleton;
    if (skeleton === this.skeleton) return;
    this.skeleton = skeleton;
    for (const a of [...this.attachments]) {
      const index = a.jointName !== '' ? skeleton.names.indexOf(a.jointName) : a.joint < skeleton.jointCount ? a.joint : -1;
      if (index >= 0) a.setJoint(index, a.jointName);
      else this.drop(a, `${a.asset.name}: dropped, ${character.asset.name} has no joint ${a.jointName !== '' ? JSON.stringify(a.jointName) : a.joint} to hold it`);
    }
  }

  private drop(a: Attachment, message: string): void {
    this.detach(a);
    this.onWarning(message);
  }

  private stopDrawing(): void {
    this.removeStage?.();
    this.removeStage = null;
  }

  private changed(): void {
    this.onChange?.();
    this.host.requestRedraw();
  }
}
