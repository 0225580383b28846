import type { AnimationClip } from '../asset/animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { AnimationEventList } from './animation-events.ts';
import { withMarker, type MarkerTrack } from './clip-markers.ts';
import type { RootMotionMode } from './root-motion.ts';
import { copyLocalPose, createLocalPose } from '../skeleton/local-pose.ts';
import { BlendingJob, blendLayers, type BlendingBackend, type BlendingLayer } from './blending-job.ts';
import { ClipPlayer } from './clip-player.ts';
import { AnimatorLayer, type LayerMode, type LayerOptions, type PoseFactory } from './animator-layer.ts';
import type { AnimatorOptions, PlayOptions } from './animator-options.ts';
import { AnimatorRootMotion } from './animator-root-motion.ts';
import { ClipSlot } from './clip-slot.ts';
import { compileClip, RuntimeClip } from './runtime-clip.ts';
import { sampleClip } from './sample-clip.ts';
import { SamplingContext, type SamplingBackend } from './sampling-context.ts';

export type { LayerMode, LayerOptions, PoseFactory };
export type { AnimatorOptions, PlayOptions };


/**
 * Plays clips on one skeleton, the runtime a viewer or game drives each frame: clip players (time in
 * seconds, speed including negative, loop / once / ping-pong, seek) with keyframe cursors, crossfades
 * between clips, and layers (override or additive, each with a weight and an optional per-joint mask),
 * evaluated bottom-up into one local pose. Morph weights (`LocalPose.morphWeights`) blend linearly alongside
 * the joints (crossfades, layers, additive deltas), masked by the joint that carries them.
 *
 * ```ts
 * const animator = new Animator(asset.skeleton.jointCount);
 * const clips = asset.clips.map((clip) => compileClip(clip, asset.skeleton.jointCount));  // once, at load
 * animator.play(clips[0]);                                         // base layer, loop, speed 1
 * animator.play(clips[1], { fade: 0.3, loop: 'pingpong', speed: -1 });  // crossfade over 0.3 s
 * const upper = animator.addLayer({ mode: 'override', weight: 0.8, mask: upperBodyMask });
 * animator.play(wave, { layer: upper, fade: 0.2 });
 * // each frame (events: an AnimationEventList made once; optional):
 * animator.update(dtSeconds, events);
 * animator.evaluate(pose, asset.restPose);  // then localToModel → computeSkinMatrices
 * ```
 *
 * `update(dt, events)` reports loops, ends and markers crossed ({@link AnimationEventList}); {@link rootMotion}
 * takes the hips' travel out of the base layer's clips and accumulates it into {@link placement}.
 *
 * Each layer holds up to `maxClipsPerLayer` clips at once (a clip fading in and those still fading out);
 * a `play` beyond that drops the lowest-weighted one (its weight goes to the strongest remaining one, so the
 * sum of fade weights is unchanged). A slot is freed when its fade-out reaches 0.
 * `update` and `evaluate` allocate nothing; `play` and `addLayer` may (compiling an `AnimationClip`, cursors
 * for a clip with more timelines than seen before, a layer's pose buffers).
 */
export class Animator {
  readonly jointCount: number;
  /** Morph weights of the poses it writes (`AnimatorOptions.morphWeightJoints.length`, else 0). */
  readonly morphWeightCount: number;
  private readonly morphJoints: Int32Array | null;
  private readonly layers: AnimatorLayer[] = [];
  private capacity: number;
  private serial = 0;
  /** `Float32Array(jointCount)`: 1 − α·mask[j], the result so far's share under a masked layer. */
  private readonly belowWeights: Float32Array;
  /** A layer over the result so far: `out` at 1 − α·mask[j], the layer's pose at α·mask[j]. */
  private readonly over = new BlendingJob();
  private readonly overBelow: BlendingLayer;
  private readonly overTop: BlendingLayer;
  /** An additive clip on the result so far (no normal layer: `out` as it is). */
  private readonly additive = new BlendingJob();
  private readonly additiveLayer: BlendingLayer;
  /** Markers added by {@link addMarker}, per clip (with the clip's own): what its players report. */
  private readonly markerTracks = new Map<RuntimeClip, MarkerTrack>();
  /**
   * Root motion of the base layer's clips (`RootMotionMode`; docs/guide/root-motion.md): `off` (default),
   * `in-place` or `applied`. Needs `AnimatorOptions.motionRoot`; without it every mode is `off`.
   */
  rootMotion: RootMotionMode = 'off';
  /**
   * `Float64Array(3)`: in `applied` mode, the travel taken out of the pose so far, a planar rigid transform
   * [x, z, yaw] (model-space units, radians about +Y; `composeMotion`): place the model by
   * `T(x, 0, z)·R_y(yaw)` (see {@link placementMatrix}). Accumulated across loops (a whole clip's travel per
   * wrap) and crossfades (the clips' motion deltas blended by their fade weights); {@link resetPlacement}
   * zeroes it.
   */
  readonly placement: Float64Array;
  private readonly samplingKernel: (() => SamplingBackend | null) | null;
  private readonly createPose: PoseFactory;
  private readonly blendingKernel: BlendingBackend | null;
  /** Root motion: the clips' motion records, the placement, scratch. */
  private readonly motion: AnimatorRootMotion;
  /** The options {@link driveSlot} binds a clip with (reused: it runs each frame). */
  private readonly driveOptions: { layer: number; startTime: number } = { layer: 0, startTime: 0.5 };

  /** Creates an animator with one override layer (index 0, weight 1, no mask). */
  constructor(jointCount: number, options: AnimatorOptions = {}) {
    this.jointCount = jointCount;
    this.morphJoints = options.morphWeightJoints ? options.morphWeightJoints.slice() : null;
    this.morphWeightCount = this.morphJoints ? this.morphJoints.length : 0;
    this.capacity = Math.max(1, options.maxClipsPerLayer ?? 4);
    this.motion = new AnimatorRootMotion(options.motionRoot ?? null, jointCount, this.morphWeightCount);
    this.placement = this.motion.placement;
    this.samplingKernel = options.samplingKernel ?? null;
    this.createPose = options.createPose ?? createLocalPose;
    this.blendingKernel = options.blendingKernel ?? null;
    this.over.kernel = this.blendingKernel;
    this.additive.kernel = this.blendingKernel;
    this.layers.push(new AnimatorLayer(jointCount, this.morphWeightCount, this.capacity, {}, this.createPose));
    this.layers[0].clips.kernel = this.blendingKernel;
    this.belowWeights = this.createJointWeights();
    // Records filled on each evaluate (poses, weights, masks); the placeholder pose is never read. Weights
    // start fractional so that V8 keeps them as double fields, written in place each frame.
    const placeholder = createLocalPose(0);
    this.over.morphWeightJoints = this.morphJoints;
    this.overBelow = this.over.addLayer(placeholder, 0.5);
    this.overTop = this.over.addLayer(placeholder, 0.5);
    this.additive.morphWeightJoints = this.morphJoints;
    this.additiveLayer = this.additive.addAdditiveLayer(placeholder, placeholder, 0.5);
  }

  /** Number of layers, base layer included. */
  get layerCount(): number {
    return this.layers.length;
  }

  /**
   * Adds a layer above the existing ones.
   * @returns its index, for `play(clip, { layer })`
   * @throws RangeError when the mask is not `Float32Array(jointCount)`
   */
  addLayer(options: LayerOptions = {}): number {
    this.checkMask(options.mask);
    const layer = new AnimatorLayer(this.jointCount, this.morphWeightCount, this.capacity, options, this.createPose);
    layer.clips.kernel = this.blendingKernel;
    this.layers.push(layer);
    this.storeMask(layer, options.mask ?? null);
    return this.layers.length - 1;
  }

  /** Sets a layer's weight (normally in [0, 1]). @throws RangeError for a layer that does not exist */
  setLayerWeight(layer: number, weight: number): void {
    this.layer(layer).weight = weight;
  }

  /**
   * Sets or clears (null) a layer's per-joint mask, `Float32Array(jointCount)`, values in [0, 1]. Copied (into
   * the blending kernel's memory when there is one; allocates on a layer's first mask): later edits of the
   * array are not seen, set it again.
   * @throws RangeError for a layer that does not exist or a mask of another length
   */
  setLayerMask(layer: number, mask: Float32Array | null): void {
    this.checkMask(mask);
    this.storeMask(this.layer(layer), mask);
  }

  /**
   * Starts `clip` on a layer, crossfading over `fade` seconds from the clips the layer plays now (which fade
   * out over the same time and are then freed). With nothing playing on the layer and `fade > 0`, the clip
   * fades in over the layers below (for the base layer, the rest pose).
   *
   * @param clip a clip from `compileClip`; an `AnimationClip` is compiled (validated and copied) on every
   *   call, which allocates — compile clips once to start them often
   * @returns the clip's player (time, seek, speed, loop); it belongs to the animator and is reused for
   *   another clip once this one has faded out
   * @throws RangeError for a layer that does not exist, a clip animating joints beyond `jointCount` or
   *   morph weights beyond `morphWeightCount`, or `repetitions` that is not an integer ≥ 1 nor `Infinity`
   * @throws Error from `compileClip` for a malformed `AnimationClip`
   */
  play(clip: RuntimeClip | AnimationClip, options: PlayOptions = {}): ClipPlayer {
    const layer = this.layer(options.layer ?? 0);
    const repetitions = options.repetitions ?? Infinity;
    if (!(repetitions === Infinity || (Number.isInteger(repetitions) && repetitions >= 1))) {
      throw new RangeError(`Animator: repetitions must be an integer ≥ 1 or Infinity, got ${repetitions}`);
    }
    const runtime = clip instanceof RuntimeClip ? clip : compileClip(clip, this.jointCount);
    if (runtime.requiredJointCount > this.jointCount) {
      throw new RangeError(`Animator: clip "${runtime.name}" animates ${runtime.requiredJointCount} joints, the animator has ${this.jointCount}`);
    }
    if (runtime.requiredMorphWeightCount > this.morphWeightCount) {
      throw new RangeError(`Animator: clip "${runtime.name}" animates ${runtime.requiredMorphWeightCount} morph weights, the animator has ${this.morphWeightCount}`);
    }
    const fade = Math.max(0, options.fade ?? 0);
    for (const slot of layer.slots) {
      if (!slot.active) continue;
      slot.startFade(0, fade);
      if (slot.weight === 0) slot.active = false;
    }
    let slot: ClipSlot | null = null;
    for (const free of layer.slots) {
      if (!free.active) {
        slot = free;
        break;
      }
    }
    if (!slot) {
      // Pool full: drop the weakest clip and hand its weight to the strongest one left, so the weights
      // still sum as before (a crossfade keeps Σ w = 1 and does not dip towards the layers below).
      slot = layer.slots[0];
      for (const other of layer.slots) if (other.weight < slot.weight) slot = other;
      let heir: ClipSlot | null = null;
      for (const other of layer.slots) if (other !== slot && (!heir || other.weight > heir.weight)) heir = other;
      if (heir) {
        heir.weight += slot.weight;
        heir.startFade(0, fade);
      }
    }
    this.bind(layer, slot, runtime, options, fade, repetitions);
    return slot.player!;
  }

  /** Binds `runtime` to `slot` of `layer` as {@link play} describes (speed, loop, start time, fade in, reference). */
  private bind(layer: AnimatorLayer, slot: ClipSlot, runtime: RuntimeClip, options: PlayOptions, fade: number, repetitions: number): void {
    const speed = options.speed ?? 1;
    const loop = options.loop ?? 'loop';
    if (slot.player) {
      slot.player.speed = speed;
      slot.player.loop = loop;
      slot.player.setClip(runtime);
    } else {
      slot.player = new ClipPlayer(runtime, loop, speed, new SamplingContext(0, this.samplingKernel?.() ?? null));
      if (speed < 0 && loop === 'once') slot.player.seek(runtime.duration);
    }
    slot.player.markers = this.markerTracks.get(runtime) ?? runtime.markers;
    slot.player.repetitions = repetitions;
    if (options.startTime !== undefined) slot.player.seek(options.startTime);
    slot.active = true;
    slot.held = false;
    slot.motionPrimed = false;
    slot.motionStartTime = slot.player.time;
    slot.serial = ++this.serial;
    slot.weight = fade > 0 ? 0 : 1;
    slot.startFade(1, fade);
    if (layer.mode === 'additive') {
      if (options.reference) {
        slot.reference = options.reference;
        slot.referenceDirty = false;
      } else {
        slot.ownReference ??= this.createPose(this.jointCount, this.morphWeightCount);
        slot.referenceContext ??= new SamplingContext();
        slot.reference = slot.ownReference;
        slot.referenceDirty = true;
        slot.referenceTime = options.referenceTime ?? 0;
      }
    }
  }

  /**
   * Adds a named marker to `clip` for this animator's players (those playing it now included): each crossing
   * of `timeSeconds` is then reported by {@link update} as a `marker` event. The clip's own markers
   * (`AnimationClip.markers`, glTF animation extras) are reported too. Allocates (not for the frame loop).
   * @param timeSeconds clip time in [0, clip.duration]
   * @throws RangeError for a time outside the clip or a name that is not a string
   */
  addMarker(clip: RuntimeClip, timeSeconds: number, name: string): void {
    const track = withMarker(this.markerTracks.get(clip) ?? clip.markers, timeSeconds, name, clip.duration, clip.name);
    this.markerTracks.set(clip, track);
    for (const layer of this.layers) {
      for (const slot of layer.slots) if (slot.player && slot.player.clip === clip) slot.player.markers = track;
    }
  }

  /** Zeroes {@link placement} (the model back where it started). */
  resetPlacement(): void {
    this.placement.fill(0);
  }

  /**
   * Writes {@link placement} as a 4×4 column-major matrix `T(x, 0, z)·R_y(yaw)` (model space to the model's
   * world placement) into `out[offset … offset+15]`. Allocates nothing.
   * @returns `out`
   */
  placementMatrix(out: Float32Array, offset = 0): Float32Array {
    return this.motion.placementMatrix(out, offset);
  }

  /** Fades out everything a layer plays over `fade` seconds (0: at once). @throws RangeError */
  stop(layer = 0, fade = 0): void {
    for (const slot of this.layer(layer).slots) {
      if (!slot.active) continue;
      slot.startFade(0, fade);
      if (slot.weight === 0) slot.active = false;
    }
  }

  /** The player of the layer's most recently started clip still playing, or null. @throws RangeError */
  player(layer = 0): ClipPlayer | null {
    let newest: ClipSlot | null = null;
    for (const slot of this.layer(layer).slots) {
      if (slot.active && (!newest || slot.serial > newest.serial)) newest = slot;
    }
    return newest ? newest.player : null;
  }

  /**
   * Sets the playback rate of every clip a layer is playing, those fading out included (a viewer's speed
   * control). Clips started later take `PlayOptions.speed`. Allocates nothing.
   * @param speed rate, 1 = real time; negative plays backwards
   * @throws RangeError for a layer that does not exist
   */
  setLayerSpeed(layer: number, speed: number): void {
    const slots = this.layer(layer).slots;
    for (let i = 0; i < slots.length; i++) {
      const player = slots[i].player;
      if (slots[i].active && player) player.speed = speed;
    }
  }

  /** Clips a layer holds at once (`AnimatorOptions.maxClipsPerLayer`, or more after {@link reserveClipsPerLayer}). */
  get maxClipsPerLayer(): number {
    return this.capacity;
  }

  /**
   * Lets every layer (those added later too) hold at least `count` clips at once: an animator made before the
   * caller knew what it would play (a viewer's, when an animation graph arrives later) takes an
   * `AnimationGraphDriver`. New slots are free; what plays goes on. Never shrinks. Allocates (not for the frame loop).
   */
  reserveClipsPerLayer(count: number): void {
    if (!(count > this.capacity)) return;
    this.capacity = Math.ceil(count);
    for (const layer of this.layers) layer.grow(this.capacity, this.jointCount, this.morphWeightCount, this.createPose);
  }

  /**
   * Sets slot `index` of a layer to play `clip` at fade weight `values[1]`, held (no fade): what an
   * `AnimationGraphDriver` calls each frame for each clip its graph plays, weights from the graph. When the slot
   * is free or plays another clip, binds `clip` to it (rewound, then sought to `values[2]` seconds, root motion
   * restarted from there); otherwise only sets the weight. The player's speed and loop mode are the caller's to
   * set. `values` is typed (its [0] unused) so that no floating-point value crosses the call, which V8 would box
   * on the heap. Allocates only on a slot's first clip.
   * @returns the slot's player
   * @throws RangeError for a layer or slot that does not exist, or a clip that does not fit (as {@link play})
   */
  driveSlot(layer: number, index: number, clip: RuntimeClip, values: Float64Array): ClipPlayer {
    const target = this.layer(layer);
    const slot = target.slots[index];
    if (!slot) throw new RangeError(`Animator: layer ${layer} has ${target.slots.length} clip slots, not ${index + 1}`);
    if (!slot.active || !slot.player || slot.player.clip !== clip) {
      if (clip.requiredJointCount > this.jointCount || clip.requiredMorphWeightCount > this.morphWeightCount) {
        throw new RangeError(`Animator: clip "${clip.name}" animates more joints or morph weights than the animator has`);
      }
      const options = this.driveOptions;
      options.layer = layer;
      options.startTime = values[2];
      this.bind(target, slot, clip, options, 0, Infinity);
    }
    slot.held = true;
    slot.weight = values[1];
    slot.fadeFrom = values[1];
    slot.fadeTo = values[1];
    slot.fadeDuration = 0;
    return slot.player!;
  }

  /** Frees slot `index` of a layer at once (a clip the graph no longer plays). @throws RangeError */
  releaseSlot(layer: number, index: number): void {
    const slot = this.layer(layer).slots[index];
    if (!slot) throw new RangeError(`Animator: layer ${layer} has no clip slot ${index}`);
    slot.active = false;
    slot.held = false;
    slot.weight = 0;
    slot.fadeTo = 0;
  }

  /** Number of clips a layer is playing (fading ones included). @throws RangeError */
  activeClipCount(layer = 0): number {
    let n = 0;
    for (const slot of this.layer(layer).slots) if (slot.active) n++;
    return n;
  }

  /**
   * Advances every playing clip by `dtSeconds` of real time (each at its own speed) and every fade by
   * `dtSeconds`; frees clips whose fade-out has finished. With `events`, first clears it, then fills it with
   * what each clip met on the way — `loop`, `finished`, `marker` ({@link AnimationEventList}; clips fading
   * out report too, with their weight) — each crossing once, in order per clip, clips in layer order.
   * Allocates nothing (the list's pool grows only past its largest update so far).
   * @param append true: add to `events` without clearing it first (an `AnimationGraphDriver` puts its state
   *   events there before)
   * @returns `events` (null when not given)
   */
  update(dtSeconds: number, events: AnimationEventList | null = null, append = false): AnimationEventList | null {
    if (!append) events?.clear();
    for (let l = 0; l < this.layers.length; l++) {
      const slots = this.layers[l].slots;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (!slot.active) continue;
        slot.advance(dtSeconds, events, l);
      }
    }
    return events;
  }

  /**
   * Writes the blended local pose: starts from `restPose`, then applies each layer bottom-up. Within an
   * override layer the clips (each sampled over the rest pose, so joints a clip does not animate are at rest)
   * are blended by their fade weights, then laid over the result so far as a crossfade at layer weight ×
   * min(1, Σ fade weights), through the layer's mask; additive layers add each clip's delta — each step one
   * {@link blendLayers}. Allocates nothing.
   *
   * @param out pose of `jointCount` joints, overwritten
   * @param restPose the skeleton's rest pose (`ModelAsset.restPose`, the file's node transforms)
   * @returns `out`
   */
  evaluate(out: LocalPose, restPose: LocalPose): LocalPose {
    copyLocalPose(out, restPose);
    for (let l = 0; l < this.layers.length; l++) {
      const layer = this.layers[l];
      if (layer.weight === 0) continue;
      const slots = layer.slots;
      if (layer.mode === 'additive') {
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i];
          if (!slot.active || slot.weight === 0) continue;
          copyLocalPose(slot.pose, restPose);
          slot.player!.sample(slot.pose);
          const reference = slot.reference!;
          if (slot.referenceDirty) {
            copyLocalPose(reference, restPose);
            sampleClip(reference, slot.player!.clip, slot.referenceTime, slot.referenceContext!);
            slot.referenceDirty = false;
          }
          const additive = this.additiveLayer;
          additive.pose = slot.pose;
          additive.reference = reference;
          additive.weight = layer.weight * slot.weight;
          additive.jointWeights = layer.mask;
          blendLayers(out, this.additive);
        }
        continue;
      }
      let n = 0, total = 0, only: ClipSlot | null = null;
      const clips = layer.clips.layers;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        const active = slot.active && slot.weight !== 0;
        clips[i].weight = active ? slot.weight : 0;
        if (!active) continue;
        total += slot.weight;
        only = slot;
        n++;
      }
      if (n === 0) continue;
      const alpha = layer.weight * (total < 1 ? total : 1);
      const motion = l === 0 && this.motion.root !== null && this.rootMotion !== 'off';
      if (motion) this.motion.begin();
      if (n === 1 && l === 0 && alpha === 1 && !layer.mask) {
        // Fast path: one clip at full weight on the base layer: sample straight over the rest pose.
        only!.player!.sample(out);
        if (motion) {
          this.motion.take(only!, out, restPose, this.rootMotion);
          this.motion.apply(this.rootMotion);
        }
        continue;
      }
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (!slot.active || slot.weight === 0) continue;
        copyLocalPose(slot.pose, restPose);
        slot.player!.sample(slot.pose);
        if (motion) this.motion.take(slot, slot.pose, restPose, this.rootMotion);
      }
      if (motion) this.motion.apply(this.rootMotion);
      const layerPose = n === 1 ? only!.pose : blendLayers(layer.pose, layer.clips);
      const mask = layer.mask, below = this.overBelow, top = this.overTop;
      below.pose = out;
      top.pose = layerPose;
      top.weight = alpha;
      top.jointWeights = mask;
      if (mask) {
        const complement = this.belowWeights;
        for (let j = 0; j < complement.length; j++) complement[j] = 1 - alpha * mask[j];
        below.weight = 1;
        below.jointWeights = complement;
      } else {
        below.weight = 1 - alpha;
        below.jointWeights = null;
      }
      blendLayers(out, this.over);
    }
    return out;
  }

  private layer(index: number): AnimatorLayer {
    const layer = this.layers[index];
    if (!layer) throw new RangeError(`Animator: layer ${index} does not exist (${this.layers.length} layers)`);
    return layer;
  }

  /** Copies `mask` into the layer's own store (made on its first mask), or clears the layer's mask. */
  private storeMask(layer: AnimatorLayer, mask: Float32Array | null): void {
    layer.setMask(mask, () => this.createJointWeights());
  }

  /** A `Float32Array(jointCount)` where the blending kernel reads per-joint weights, else an ordinary one. */
  private createJointWeights(): Float32Array {
    return this.blendingKernel?.createJointWeights(this.jointCount) ?? new Float32Array(this.jointCount);
  }

  private checkMask(mask: Float32Array | null | undefined): void {
    if (mask && mask.length !== this.jointCount) {
      throw new RangeError(`Animator: mask has ${mask.length} entries for ${this.jointCount} joints`);
    }
  }
}
