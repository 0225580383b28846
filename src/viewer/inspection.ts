import type { GpuModel } from '../gpu/skinning/gpu-model.ts';
import type { DrawStyle, SurfaceView } from '../gpu/debug/draw-style.ts';
import { CpuVertexBuffers } from '../gpu/debug/cpu-vertex-buffers.ts';
import { EdgeBuffers } from '../gpu/debug/edge-buffers.ts';
import { LineOverlay } from '../gpu/debug/line-overlay.ts';
import { TransformFeedbackCapture } from '../gpu/skinning/transform-feedback-capture.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { FrameInspector } from '../view/frame-inspector.ts';
import type { ViewFrame } from '../view/view-frame.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { mat4 } from 'gl-matrix';
import { tamperedSkinMatrices } from './skin-matrices-tamper.ts';

/** The debug views of the viewer page, as the panel sets them. */
export interface InspectionSettings {
  /** How the surface is shaded: lit, the selected joint's weights, influence counts, or not at all. */
  surface: SurfaceView;
  /** Triangle edges, skinned as the surface is. */
  wireframe: boolean;
  /** Joints (discs) and bones (joint → parent lines), over the mesh. */
  skeleton: boolean;
  /** The model's bounding box in display space, at the current pose. */
  bounds: boolean;
  /** Each vertex's skinned normal as a short line (from the CPU reference path). */
  normals: boolean;
  /** Draw the CPU reference path's vertices instead of the shader's. */
  cpuVertices: boolean;
  /** Measure max |GPU − CPU| of the skinned positions (transform feedback), at most twice a second. */
  compare: boolean;
  /**
   * Show the bind pose: every skinning matrix the identity (the mesh as the file stores it) and each skin
   * joint at the inverse of its inverse bind matrix, whatever the clip does.
   */
  bindPose: boolean;
}

/** The live GPU-vs-CPU readout. */
export interface ParityReading {
  /** Largest |GPU − CPU| over every coordinate of every skinned vertex, in the model's units. */
  readonly maxError: number;
  /** `maxError` ÷ the diagonal of the model's bounds. */
  readonly relative: number;
  /** Skinned vertices compared. */
  readonly vertices: number;
}

const EDGE_COLOR = new Float32Array([0.05, 0.45, 0.9, 1]);
const BONE_COLOR = [1, 0.62, 0.15, 0.95] as const;
const JOINT_COLOR = [0.95, 0.95, 0.95, 1] as const;
const SELECTED_COLOR = [1, 0.2, 0.6, 1] as const;
const HOVER_COLOR = [0.3, 1, 0.5, 1] as const;
const BOX_COLOR = [0.9, 0.9, 0.3, 0.9] as const;
const NORMAL_COLOR = [0.4, 0.6, 1, 0.8] as const;
const COMPARE_INTERVAL_MS = 500;

/**
 * The viewer's inspection tools for riggers, drawn by the model's own renderer around each frame (a
 * {@link FrameInspector}): weight heat map and influence count, wireframe, skeleton overlay with hover and
 * selection, bounding box, normals, the CPU reference path's vertices in place of the shader's, and the live
 * max |GPU − CPU| readout. GL objects are made per model on first use and freed when the model changes.
 */
export class Inspection implements FrameInspector {
  readonly settings: InspectionSettings = {
    surface: 'shaded', wireframe: false, skeleton: false, bounds: false, normals: false, cpuVertices: false, compare: false,
    bindPose: false,
  };
  /** Selected skeleton joint, −1 for none. */
  selectedJoint = -1;
  /** Joint under the pointer, −1 for none. */
  hoverJoint = -1;
  /** The last GPU-vs-CPU reading, or null before the first (or while `compare` is off). */
  reading: ParityReading | null = null;
  /** Called after each new reading. */
  onReading: ((reading: ParityReading) => void) | null = null;

  private model: GpuModel | null = null;
  private gl: WebGL2RenderingContext | null = null;
  private edges: EdgeBuffers | null = null;
  private cpu: CpuVertexBuffers | null = null;
  private overlayLines: LineOverlay | null = null;
  private capture: TransformFeedbackCapture | null = null;
  private lastCompareMs = -Infinity;
  /** Readouts started and not yet read back (the GPU's output is read once a fence has passed). */
  private readoutsInFlight = 0;
  /** Whether this frame's {@link styleFor} skinned on the CPU for a comparison that {@link overlay} then runs. */
  private compareThisFrame = false;
  private readonly style: { -readonly [K in keyof DrawStyle]: DrawStyle[K] } = {
    surface: 'shaded', weightJointBySkin: new Int32Array(0), weightNode: -1, edgesOf: null, edgeColor: EDGE_COLOR, cpuVertices: null,
  };
  /** Joints drawn: skin joints (every node when the model has no skin). */
  private joints = new Int32Array(0);
  /** Per drawn joint, the index of its drawn parent, or −1. */
  private jointParents = new Int32Array(0);
  /** Per drawn joint, drawing-buffer pixels (x, y from the top-left), from the last frame. */
  private jointScreen = new Float32Array(0);
  private positions = new Float32Array(0);
  private colors = new Float32Array(0);
  private selectionFor = -2;
  private readonly bindScratch = new Float32Array(16);
  private readonly bindScratchInverse = new Float32Array(16);
  private drawnJointCount = 0;

  /** The joint names of the model shown, by skeleton index. */
  jointName(joint: number): string {
    const names = this.model?.asset.skeleton.names;
    return names && joint >= 0 && joint < names.length ? names[joint] || `joint ${joint}` : '';
  }

  /** The skeleton joints the overlay draws and picking can select (skin joints, or every node). */
  get pickableJoints(): Int32Array {
    return this.joints;
  }

  /**
   * The drawn joint nearest to (x, y) within `radius`, all in drawing-buffer pixels from the top-left, as
   * placed by the last frame; −1 when none is that close.
   */
  pickJoint(x: number, y: number, radius: number): number {
    let best = -1, bestDistance = radius * radius;
    for (let k = 0; k < this.drawnJointCount; k++) {
      const dx = this.jointScreen[2 * k] - x, dy = this.jointScreen[2 * k + 1] - y;
      const d = dx * dx + dy * dy;
      if (d <= bestDistance) {
        bestDistance = d;
        best = this.joints[k];
      }
    }
    return best;
  }

  /** Drawing-buffer pixels (x, y from the top-left) of skeleton joint `joint` in the last frame, or null. */
  jointOnScreen(joint: number): [number, number] | null {
    for (let k = 0; k < this.drawnJointCount; k++) {
      if (this.joints[k] === joint) return [this.jointScreen[2 * k], this.jointScreen[2 * k + 1]];
    }
    return null;
  }

  /** Whether any view is on (with none, frames pay nothing for the inspection). */
  get active(): boolean {
    const s = this.settings;
    return s.surface !== 'shaded' || s.wireframe || s.skeleton || s.bounds || s.normals || s.cpuVertices || s.compare || s.bindPose;
  }

  styleFor(frame: ViewFrame): DrawStyle | undefined {
    if (!this.active) return undefined;
    this.bind(frame);
    const s = this.settings;
    if (s.bindPose) applyBindPose(frame.animated, this.bindScratch, this.bindScratchInverse);
    // The CPU reference runs only for frames that show or compare its vertices (compare: when a reading is due).
    const compareDue = s.compare && performance.now() - this.lastCompareMs >= COMPARE_INTERVAL_MS;
    this.compareThisFrame = compareDue;
    if ((s.cpuVertices || s.normals || compareDue) && this.cpu) this.cpu.update(frame.animated, frame.method, s.cpuVertices);
    if (s.surface === 'shaded' && !s.wireframe && !s.cpuVertices) return undefined;
    if (this.selectionFor !== this.selectedJoint) this.updateSelection(frame.gpu.asset);
    const style = this.style;
    style.surface = s.surface;
    style.edgesOf = s.wireframe ? this.edges!.edgesOf : null;
    style.cpuVertices = s.cpuVertices ? this.cpu : null;
    return style;
  }

  overlay(frame: ViewFrame): void {
    if (!this.active) return;
    const s = this.settings;
    const gl = frame.gl;
    const viewProjection = frame.renderer.lastViewProjection;
    if (s.bounds) this.drawBounds(frame, viewProjection);
    if (s.normals) this.drawNormals(frame, viewProjection);
    this.placeJoints(frame, viewProjection);
    if (s.skeleton) this.drawSkeleton(gl, viewProjection);
    if (this.compareThisFrame) {
      this.compareThisFrame = false;
      // One live readout at a time: a slow GPU spaces them out rather than queueing them.
      if (this.readoutsInFlight === 0) {
        this.lastCompareMs = performance.now();
        void this.compare(frame);
      }
    }
  }

  /**
   * Measures max |GPU − CPU| of this frame (transform feedback), whatever the throttle. Resolves once the GPU's
   * vertices are read back (after a fence, a frame or so later); null without a skinned primitive, or when the
   * model changed or the context was lost meanwhile.
   */
  compareNow(frame: ViewFrame): Promise<ParityReading | null> {
    this.bind(frame);
    if (this.settings.bindPose) applyBindPose(frame.animated, this.bindScratch, this.bindScratchInverse);
    this.cpu!.update(frame.animated, frame.method, this.settings.cpuVertices);
    return this.compare(frame);
  }

  /** Frees every GL object (the renderer's context stays). */
  dispose(): void {
    this.release();
    this.overlayLines?.dispose();
    this.overlayLines = null;
    this.capture?.dispose();
    this.capture = null;
  }

  /** Makes the per-model and per-context objects when the model or the context changed. */
  private bind(frame: ViewFrame): void {
    if (frame.gl !== this.gl) {
      // Another context (the objects restore themselves after a loss of this one).
      this.dispose();
      this.gl = frame.gl;
      this.overlayLines = new LineOverlay(frame.gl);
      this.capture = new TransformFeedbackCapture(frame.gl);
    }
    if (frame.gpu !== this.model) {
      this.release();
      this.model = frame.gpu;
      this.edges = new EdgeBuffers(frame.gl);
      this.cpu = new CpuVertexBuffers(frame.gl, frame.gpu);
      this.setUpJoints(frame.gpu.asset);
      this.selectionFor = -2;
      this.reading = null;
    }
  }

  private release(): void {
    this.edges?.dispose();
    this.cpu?.dispose();
    this.edges = null;
    this.cpu = null;
    this.model = null;
  }

  private setUpJoints(asset: ModelAsset): void {
    const skeleton = asset.skeleton;
    this.joints = pickableJoints(asset);
    const joints = [...this.joints];
    const slot = new Int32Array(skeleton.jointCount).fill(-1);
    joints.forEach((j, k) => (slot[j] = k));
    this.jointParents = Int32Array.from(joints, (j) => {
      // The nearest drawn ancestor, so bones bridge nodes that are not joints.
      for (let p = skeleton.parents[j]; p >= 0; p = skeleton.parents[p]) if (slot[p] >= 0) return slot[p];
      return -1;
    });
    this.jointScreen = new Float32Array(2 * joints.length);
    let vertices = 3 * joints.length;
    for (const instance of asset.meshInstances) for (const p of asset.meshes[instance.mesh].primitives) vertices = Math.max(vertices, 2 * p.vertexCount);
    this.positions = new Float32Array(3 * Math.max(vertices, 24));
    this.colors = new Float32Array(4 * Math.max(vertices, 24));
    this.drawnJointCount = 0;
  }

  private updateSelection(asset: ModelAsset): void {
    const bySkin = this.style.weightJointBySkin.length === asset.skins.length ? this.style.weightJointBySkin : new Int32Array(asset.skins.length);
    asset.skins.forEach((skin, s) => (bySkin[s] = this.selectedJoint >= 0 ? skin.joints.indexOf(this.selectedJoint) : -1));
    this.style.weightJointBySkin = bySkin;
    this.style.weightNode = this.selectedJoint;
    this.selectionFor = this.selectedJoint;
  }

  /** Display-space positions (relative to the origin) and screen pixels of the drawn joints. */
  private placeJoints(frame: ViewFrame, vp: Float32Array): void {
    const m = frame.animated.modelMatrices, d = frame.displayMatrix;
    const n = this.joints.length;
    for (let k = 0; k < n; k++) {
      const o = 16 * this.joints[k];
      const x = m[o + 12], y = m[o + 13], z = m[o + 14];
      const px = d[0] * x + d[4] * y + d[8] * z + d[12];
      const py = d[1] * x + d[5] * y + d[9] * z + d[13];
      const pz = d[2] * x + d[6] * y + d[10] * z + d[14];
      this.positions[3 * k] = px; this.positions[3 * k + 1] = py; this.positions[3 * k + 2] = pz;
      const cx = vp[0] * px + vp[4] * py + vp[8] * pz + vp[12];
      const cy = vp[1] * px + vp[5] * py + vp[9] * pz + vp[13];
      const cw = vp[3] * px + vp[7] * py + vp[11] * pz + vp[15];
      const behind = cw <= 0;
      this.jointScreen[2 * k] = behind ? -1e9 : (0.5 + 0.5 * cx / cw) * frame.width;
      this.jointScreen[2 * k + 1] = behind ? -1e9 : (0.5 - 0.5 * cy / cw) * frame.height;
    }
    this.drawnJointCount = n;
  }

  private drawSkeleton(gl: WebGL2RenderingContext, vp: Float32Array): void {
    const overlay = this.overlayLines!;
    const n = this.drawnJointCount;
    const pos = this.positions, col = this.colors;
    // Bones first, as pairs after the n joint positions (which placeJoints wrote at the start).
    let v = n;
    for (let k = 0; k < n; k++) {
      const p = this.jointParents[k];
      if (p < 0) continue;
      for (const from of [p, k]) {
        pos[3 * v] = pos[3 * from]; pos[3 * v + 1] = pos[3 * from + 1]; pos[3 * v + 2] = pos[3 * from + 2];
        col.set(BONE_COLOR, 4 * v);
        v++;
      }
    }
    if (v > n) overlay.drawLines(vp, pos.subarray(3 * n), col.subarray(4 * n), v - n);
    for (let k = 0; k < n; k++) {
      const j = this.joints[k];
      col.set(j === this.selectedJoint ? SELECTED_COLOR : j === this.hoverJoint ? HOVER_COLOR : JOINT_COLOR, 4 * k);
    }
    overlay.pointSize = 9 * (globalThis.devicePixelRatio || 1);
    overlay.drawPoints(vp, pos, col, n);
  }

  private drawBounds(frame: ViewFrame, vp: Float32Array): void {
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    const d = frame.displayMatrix;
    const visit = (x: number, y: number, z: number): void => {
      const px = d[0] * x + d[4] * y + d[8] * z + d[12], py = d[1] * x + d[5] * y + d[9] * z + d[13], pz = d[2] * x + d[6] * y + d[10] * z + d[14];
      if (px < minX) minX = px; if (px > maxX) maxX = px;
      if (py < minY) minY = py; if (py > maxY) maxY = py;
      if (pz < minZ) minZ = pz; if (pz > maxZ) maxZ = pz;
    };
    const cpu = this.cpu!;
    if (cpu.entries.length > 0) {
      if (!this.settings.cpuVertices && !this.settings.normals) cpu.update(frame.animated, frame.method, false);
      for (const e of cpu.entries) for (let i = 0; i < e.positions.length; i += 3) visit(e.positions[i], e.positions[i + 1], e.positions[i + 2]);
    } else {
      const m = frame.animated.modelMatrices;
      for (let j = 0; j < m.length; j += 16) visit(m[j + 12], m[j + 13], m[j + 14]);
    }
    if (!(minX <= maxX)) return;
    const pos = this.positions, col = this.colors;
    let v = 0;
    const corner = (c: number): void => {
      pos[3 * v] = c & 1 ? maxX : minX; pos[3 * v + 1] = c & 2 ? maxY : minY; pos[3 * v + 2] = c & 4 ? maxZ : minZ;
      col.set(BOX_COLOR, 4 * v);
      v++;
    };
    for (let c = 0; c < 8; c++) {
      for (let axis = 1; axis < 8; axis <<= 1) {
        if (c & axis) continue;
        corner(c);
        corner(c | axis);
      }
    }
    this.overlayLines!.drawLines(vp, pos, col, v);
  }

  private drawNormals(frame: ViewFrame, vp: Float32Array): void {
    const d = frame.displayMatrix;
    const pos = this.positions, col = this.colors;
    // Each primitive's normals 2 % of its skinned bounds' diagonal long.
    for (const e of this.cpu!.entries) {
      const n = e.positions.length / 3;
      let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
      for (let i = 0; i < n; i++) {
        const x = e.positions[3 * i], y = e.positions[3 * i + 1], z = e.positions[3 * i + 2];
        if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y; if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
      }
      const length = 0.02 * Math.hypot(maxX - minX, maxY - minY, maxZ - minZ);
      for (let i = 0; i < n; i++) {
        for (let end = 0; end < 2; end++) {
          const x = e.positions[3 * i] + end * length * e.normals[3 * i];
          const y = e.positions[3 * i + 1] + end * length * e.normals[3 * i + 1];
          const z = e.positions[3 * i + 2] + end * length * e.normals[3 * i + 2];
          const v = 2 * i + end;
          pos[3 * v] = d[0] * x + d[4] * y + d[8] * z + d[12];
          pos[3 * v + 1] = d[1] * x + d[5] * y + d[9] * z + d[13];
          pos[3 * v + 2] = d[2] * x + d[6] * y + d[10] * z + d[14];
          col.set(NORMAL_COLOR, 4 * v);
        }
      }
      this.overlayLines!.drawLines(vp, pos, col, 2 * n);
    }
  }

  /**
   * Starts capturing the shader's positions of every skinned primitive of this frame and, once they are read
   * back (fenced, no pipeline stall), compares them with the CPU's of the same frame (copied now, as later
   * frames rewrite them). Allocates per readout, at most twice a second: not on the frame path.
   */
  private async compare(frame: ViewFrame): Promise<ParityReading | null> {
    const cpu = this.cpu!, capture = this.capture!, model = this.model;
    if (cpu.entries.length === 0) return null;
    const pending: { gpu: Promise<Float32Array>; cpu: Float32Array }[] = [];
    this.readoutsInFlight++;
    try {
      for (const e of cpu.entries) {
        let skinMatrices = frame.animated.skinMatrices[e.skin];
        // The test hook's wrong skin matrices: Vite drops the branch, and with it the module, from production builds.
        if (import.meta.env.DEV) skinMatrices = tamperedSkinMatrices(this, skinMatrices);
        const gpu = capture.captureAsync({
          gpuModel: frame.gpu, instanceIndex: e.instance, primitiveIndex: e.primitive, skinMatrices, palettePath: frame.palettePath,
          method: frame.method, origin: frame.animated.origin, morphWeights: frame.animated.morphWeights,
        });
        pending.push({ gpu: gpu.then((v) => v.positions), cpu: e.positions.slice() });
      }
      const gpuPositions = await Promise.all(pending.map((p) => p.gpu));
      if (model !== this.model) return null;
      const reading = parityOf(gpuPositions, pending.map((p) => p.cpu));
      this.reading = reading;
      this.onReading?.(reading);
      return reading;
    } catch {
      // The context was lost or the capture replaced meanwhile: no reading.
      return null;
    } finally {
      this.readoutsInFlight--;
    }
  }
}

/** Max |GPU − CPU| over every coordinate of the paired position arrays, and relative to the CPU's bounds. */
function parityOf(gpu: readonly Float32Array[], cpu: readonly Float32Array[]): ParityReading {
  let maxError = 0, vertices = 0;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (let k = 0; k < cpu.length; k++) {
    const a = gpu[k], b = cpu[k];
    for (let i = 0; i < b.length; i += 3) {
      const x = b[i], y = b[i + 1], z = b[i + 2];
      if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y; if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
      const err = Math.max(Math.abs(a[i] - x), Math.abs(a[i + 1] - y), Math.abs(a[i + 2] - z));
      if (err > maxError || Number.isNaN(err)) maxError = Number.isNaN(err) ? Infinity : err;
    }
    vertices += b.length / 3;
  }
  const diagonal = Math.hypot(maxX - minX, maxY - minY, maxZ - minZ) || 1;
  return { maxError, relative: maxError / diagonal, vertices };
}

/**
 * The skeleton joints the viewer's skeleton view draws and lets the user select: every joint of any skin, in
 * skeleton order; every node for a model without skins (rigid parts on a node hierarchy).
 * @returns `Int32Array` of skeleton indices
 */
export function pickableJoints(asset: ModelAsset): Int32Array<ArrayBuffer> {
  const inSkin = new Uint8Array(asset.skeleton.jointCount);
  for (const skin of asset.skins) for (let i = 0; i < skin.joints.length; i++) inSkin[skin.joints[i]] = 1;
  if (asset.skins.length === 0) inSkin.fill(1);
  const joints: number[] = [];
  for (let j = 0; j < inSkin.length; j++) if (inSkin[j]) joints.push(j);
  return Int32Array.from(joints);
}

/**
 * Overwrites `animated`'s buffers with the bind pose (relative to its origin O): each skinning matrix T(−O), each
 * skin joint's model matrix T(−O)·(B⁻¹)⁻¹ (the inverse of its inverse bind matrix, glTF 2.0 §3.7.3). Joints
 * outside every skin keep their pose. Allocates nothing (`scratchIn`, `scratchOut`: `Float32Array(16)` each).
 */
function applyBindPose(animated: AnimatedModel, scratchIn: Float32Array, scratchOut: Float32Array): void {
  const o = animated.origin;
  const skins = animated.asset.skins;
  for (let s = 0; s < skins.length; s++) {
    const skinMatrices = animated.skinMatrices[s];
    const skin = skins[s];
    for (let j = 0; j < skin.joints.length; j++) {
      const p = 16 * j;
      for (let k = 0; k < 16; k++) skinMatrices[p + k] = k % 5 === 0 ? 1 : 0;
      skinMatrices[p + 12] = -o[0]; skinMatrices[p + 13] = -o[1]; skinMatrices[p + 14] = -o[2];
      for (let k = 0; k < 16; k++) scratchIn[k] = skin.inverseBindMatrices[p + k];
      if (!mat4.invert(scratchOut, scratchIn)) continue;
      const m = 16 * skin.joints[j];
      for (let k = 0; k < 16; k++) animated.modelMatrices[m + k] = scratchOut[k];
      animated.modelMatrices[m + 12] -= o[0]; animated.modelMatrices[m + 13] -= o[1]; animated.modelMatrices[m + 14] -= o[2];
    }
  }
}
