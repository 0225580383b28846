import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { LineOverlay } from '../gpu/debug/line-overlay.ts';
import { AimIkJob } from '../ik/aim-ik-job.ts';
import { FootPlacementJob } from '../ik/foot-placement-job.ts';
import { invertAffine, transformPoint, transformVector } from '../math/affine-mat4.ts';
import { poseJointMatrix } from '../ik/pose-joint-matrix.ts';
import { commonAncestor, findLegs, findLookAtChain } from '../ik/rig-names.ts';
import { midAxisFromPose } from '../ik/two-bone-ik-job.ts';
import { computeModelBounds } from '../scene/model-bounds.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { ModelView } from '../view/model-view.ts';
import type { ViewFrame } from '../view/view-frame.ts';
import { PixelRays } from '../view/pixel-ray.ts';
import { createRay } from '../scene/pick-model.ts';
import { messageOf } from '../errors/message-of.ts';

/** What the IK folder offers for the shown model, and what is on (for the panel and the test hooks). */
export interface IkDemoState {
  lookAt: {
    /** Null when the model has a head (or neck) chain; else why the control is off. */
    unavailable: string | null;
    enabled: boolean;
    /** Joint names of the aim chain, top first, the head last. */
    chain: string[];
    /** The head's local axis aimed at the cursor (its local space; world +Z, the front, when set up). */
    forward: number[];
    /** The target, model space. */
    target: number[];
  };
  feet: {
    unavailable: string | null;
    enabled: boolean;
    /** Degrees: the ground's slope about world Z. */
    tilt: number;
    /** Per leg: hip, knee, ankle names. */
    legs: string[][];
    pelvis: string;
    /** The ground plane in the pose's model space (point, unit-or-not normal) and the ankles' heights above it. */
    planePoint: number[];
    planeNormal: number[];
    ankleHeights: number[];
    reached: boolean;
  };
}

const LINE_COUNT = 11;
const GRID_COLOR = [0.45, 0.8, 0.55, 0.85];

/**
 * The viewer's inverse-kinematics demo, a panel folder "IK": "Look at the cursor" (an `AimIkJob` on the head and up
 * to two trunk joints above it, found by name: `findLookAtChain`) and "Feet on tilted ground" (a `FootPlacementJob`
 * on the legs found by name, `findLegs`, the pelvis their common ancestor, on a plane through the model's lowest
 * point tilted about world Z, drawn as a grid). Each control is disabled, saying why, when the model has no such
 * joints (the built-in octopus has neither). The jobs go into the shown model's `poseJobs` (again on each model
 * shown: the `AnimatedModel` is replaced); the grid is drawn by a frame stage. The cursor's target: the ray through
 * the cursor (inverse of the frame's projection · view) met with the plane through the head facing the camera.
 */
export class IkDemo {
  readonly folder: GUI;
  private readonly values = { lookAt: false, feet: false, tilt: 15 };
  private readonly lookAtController: Controller;
  private readonly feetController: Controller;
  private readonly tiltController: Controller;
  private model: AnimatedModel | null = null;
  private aim: AimIkJob | null = null;
  private feet: FootPlacementJob | null = null;
  private lookAtReason: string | null = 'no model';
  private feetReason: string | null = 'no model';
  /** World ground: height (display-space y) of the model's lowest point when shown, the ankles' height above it. */
  private groundY = 0;
  private ankleHeight = 0;
  private gridSize = 1;
  /** World x, z where the ground plane meets y = groundY: under the hips when the feet were switched on. */
  private anchorX = 0;
  private anchorZ = 0;
  /** Of the model shown (CPU-skinned once when it is shown). */
  private bounds = { minY: 0, size: 1 };
  private overlay: LineOverlay | null = null;
  private gl: WebGL2RenderingContext | null = null;
  private readonly positions = new Float32Array(3 * 4 * LINE_COUNT);
  private readonly colors = new Float32Array(4 * 4 * LINE_COUNT);
  private readonly m = new Float64Array(16);
  private readonly inverse = new Float64Array(16);
  private readonly a = new Float64Array(3);
  private readonly rays = new PixelRays();
  private readonly ray = createRay();

  constructor(private readonly view: ModelView, gui: GUI, canvas: HTMLCanvasElement) {
    this.folder = gui.addFolder('IK');
    this.folder.domElement.id = 'sinew-ik';
    this.lookAtController = this.folder.add(this.values, 'lookAt').name('Look at the cursor').onChange(() => this.update());
    this.feetController = this.folder.add(this.values, 'feet').name('Feet on tilted ground').onChange(() => this.update());
    this.tiltController = this.folder.add(this.values, 'tilt', -30, 30, 1).name('Ground tilt (°)').onChange(() => this.update());
    for (const [c, id] of [[this.lookAtController, 'sinew-ik-look'], [this.feetController, 'sinew-ik-feet'], [this.tiltController, 'sinew-ik-tilt']] as const) {
      const input = c.domElement.querySelector('input');
      if (input) input.id = id;
    }
    for (let i = 0; i < 4 * LINE_COUNT; i++) this.colors.set(GRID_COLOR, 4 * i);
    canvas.addEventListener('pointermove', (e) => {
      if (!this.aim || !this.values.lookAt) return;
      const rect = canvas.getBoundingClientRect();
      this.aimAt(((e.clientX - rect.left) / Math.max(rect.width, 1)) * 2 - 1, 1 - ((e.clientY - rect.top) / Math.max(rect.height, 1)) * 2);
    });
    view.addStage({ afterDraw: (frame) => this.drawGround(frame) });
    this.refreshControls();
  }

  /** Sets the demo up for the model just shown (call from the view's `shown`): finds its joints, re-adds the jobs. */
  modelShown(): void {
    const model = this.view.animated;
    this.model = model;
    this.aim = null;
    this.feet = null;
    this.lookAtReason = this.feetReason = 'no model';
    if (model) {
      this.bounds = this.boundsOf(model);
      this.setUpLookAt(model);
      this.setUpFeet(model);
    }
    this.refreshControls();
    this.update();
  }

  /** Switches (for the test hooks and the console), then re-applies; returns the state. */
  set(settings: Partial<{ lookAt: boolean; feet: boolean; tilt: number }>): IkDemoState {
    Object.assign(this.values, settings);
    for (const c of [this.lookAtController, this.feetController, this.tiltController]) c.updateDisplay();
    this.update();
    return this.state();
  }

  /**
   * Aims the head at the point under the cursor at normalised device coordinates (x, y) ∈ [−1, 1]² (y up): the ray
   * through it met with the plane through the head facing the camera; false when there is no frame or no head chain.
   */
  aimAt(x: number, y: number): boolean {
    const aim = this.aim, model = this.model;
    if (!aim || !model) return false;
    const done = this.view.inspect((frame) => {
      const eye = frame.camera.eye;
      if (!(frame.width > 0 && frame.height > 0)) return false;
      const ray = this.rays.through(this.ray, frame.camera, frame.width, frame.height, ((x + 1) / 2) * frame.width, ((1 - y) / 2) * frame.height);
      const near = ray.origin, dx = ray.direction[0], dy = ray.direction[1], dz = ray.direction[2];
      const head = model.jointMatrix(aim.joints[aim.joints.length - 1], this.m);
      const hx = head[12], hy = head[13], hz = head[14];
      const nx = eye[0] - hx, ny = eye[1] - hy, nz = eye[2] - hz;
      const denominator = dx * nx + dy * ny + dz * nz;
      if (Math.abs(denominator) < 1e-12) return false;
      const t = ((hx - near[0]) * nx + (hy - near[1]) * ny + (hz - near[2]) * nz) / denominator;
      this.a[0] = near[0] + dx * t; this.a[1] = near[1] + dy * t; this.a[2] = near[2] + dz * t;
      // World → the pose's model space (no origin subtracted there).
      if (!invertAffine(this.inverse, model.world)) return false;
      transformPoint(aim.target, this.inverse, this.a);
      return true;
    });
    if (done) this.view.requestRedraw();
    return !!done;
  }

  /** What the folder shows and what is on. */
  state(): IkDemoState {
    const names = this.model?.asset.skeleton.names ?? [];
    const feet = this.feet;
    return {
      lookAt: {
        unavailable: this.lookAtReason,
        enabled: !!this.aim && this.values.lookAt,
        chain: this.aim ? [...this.aim.joints].map((j) => names[j]) : [],
        forward: this.aim ? [...this.aim.forward] : [],
        target: this.aim ? [...this.aim.target] : [],
      },
      feet: {
        unavailable: this.feetReason,
        enabled: !!feet && this.values.feet,
        tilt: this.values.tilt,
        legs: feet ? feet.legs.map((leg) => [leg.start, leg.mid, leg.end].map((j) => names[j])) : [],
        pelvis: feet ? names[feet.pelvis] : '',
        planePoint: feet ? [...feet.planePoint] : [],
        planeNormal: feet ? [...feet.planeNormal] : [],
        ankleHeights: feet ? [...feet.ankleHeights] : [],
        reached: !!feet && feet.reached,
      },
    };
  }

  private setUpLookAt(model: AnimatedModel): void {
    const skeleton = model.asset.skeleton;
    const chain = findLookAtChain(skeleton);
    if (chain.length === 0) {
      this.lookAtReason = 'no head on a neck or spine found by name';
      return;
    }
    // The head's local axes along the model's front (facingOf) and world +Y, in the pose shown.
    if (!invertAffine(this.inverse, model.world)) return;
    const head = chain[chain.length - 1];
    const forwardModel = transformVector(new Float64Array(3), this.inverse, facingOf(model));
    const upModel = transformVector(new Float64Array(3), this.inverse, Float64Array.of(0, 1, 0));
    if (!invertAffine(this.m, poseJointMatrix(new Float64Array(16), skeleton, model.pose, head))) {
      this.lookAtReason = 'the head is scaled to zero';
      return;
    }
    const forward = transformVector(new Float64Array(3), this.m, forwardModel);
    const up = transformVector(new Float64Array(3), this.m, upModel);
    this.aim = new AimIkJob(skeleton, { joints: chain, forward, up, pole: upModel });
    // Until the cursor moves: straight ahead of the face.
    const at = model.jointMatrix(head, new Float64Array(16)), front = facingOf(model);
    const reach = Math.max(1e-3, this.bounds.size);
    transformPoint(this.aim.target, this.inverse, Float64Array.of(at[12] + front[0] * reach, at[13], at[14] + front[2] * reach));
    this.lookAtReason = null;
  }

  private setUpFeet(model: AnimatedModel): void {
    const skeleton = model.asset.skeleton;
    const legs = findLegs(skeleton);
    if (legs.length !== 2) {
      this.feetReason = 'no left and right hip–knee–ankle joints found by name';
      return;
    }
    const pelvis = commonAncestor(skeleton, legs.map((leg) => leg.start));
    if (pelvis < 0) {
      this.feetReason = 'the legs have no common ancestor to lower';
      return;
    }
    try {
      const axes = legs.map((leg) => kneeAxis(model, leg.start, leg.mid, leg.end));
      this.feet = new FootPlacementJob(skeleton, { pelvis, legs: legs.map((leg, i) => ({ start: leg.start, mid: leg.mid, end: leg.end, midAxis: axes[i] })) });
    } catch (error) {
      this.feetReason = messageOf(error);
      return;
    }
    // The ground: through the model's lowest point as shown; each ankle kept as high above it as the lower one is now.
    this.groundY = this.bounds.minY;
    this.gridSize = this.bounds.size;
    const m = new Float64Array(16);
    const ankleY = Math.min(...legs.map((leg) => model.jointMatrix(leg.end, m)[13]));
    this.ankleHeight = Math.max(0, ankleY - this.groundY);
    this.feetReason = null;
  }

  private boundsOf(model: AnimatedModel): { minY: number; size: number } {
    const bounds = computeModelBounds(model.asset, model, Float32Array.from(model.world));
    const size = Math.max(bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]);
    return { minY: bounds.min[1], size };
  }

  /** Puts the jobs that are on into the model's pose jobs (feet first, then the head) and the plane in model space. */
  private update(): void {
    const model = this.model;
    if (!model) return;
    const jobs = model.poseJobs;
    const ours: (PoseJob | null)[] = [this.feet, this.aim];
    for (let i = jobs.length - 1; i >= 0; i--) if (ours.includes(jobs[i])) jobs.splice(i, 1);
    if (this.feet && this.values.feet) {
      this.placeGround(model, this.feet);
      jobs.push(this.feet);
    }
    if (this.aim && this.values.lookAt) jobs.push(this.aim);
    this.view.requestRedraw();
  }

  /** The tilted world plane, in the pose's model space: point inverse(world)·G, normal worldᵀ·n, down inverse(world)·(0, −1, 0). */
  private placeGround(model: AnimatedModel, feet: FootPlacementJob): void {
    if (!invertAffine(this.inverse, model.world)) return;
    const tilt = (this.values.tilt * Math.PI) / 180;
    const w = model.world;
    const hips = model.jointMatrix(feet.pelvis, this.m);
    this.anchorX = hips[12]; this.anchorZ = hips[14];
    this.a[0] = this.anchorX; this.a[1] = this.groundY; this.a[2] = this.anchorZ;
    transformPoint(feet.planePoint, this.inverse, this.a);
    const nx = -Math.sin(tilt), ny = Math.cos(tilt);
    feet.planeNormal[0] = w[0] * nx + w[1] * ny; feet.planeNormal[1] = w[4] * nx + w[5] * ny; feet.planeNormal[2] = w[8] * nx + w[9] * ny;
    transformVector(feet.down, this.inverse, Float64Array.of(0, -1, 0));
    const scale = Math.sqrt(feet.planeNormal[0] ** 2 + feet.planeNormal[1] ** 2 + feet.planeNormal[2] ** 2) || 1;
    feet.ankleHeights.fill(this.ankleHeight / scale);
  }

  /** Draws the ground plane as a grid around the hips, world space minus s = mat3(display)·origin (the overlay's space). */
  private drawGround(frame: ViewFrame): void {
    const feet = this.feet;
    if (!feet || !this.values.feet || frame.animated !== this.model) return;
    if (!this.overlay || this.gl !== frame.gl) {
      // Another context's overlay is freed (the overlay restores itself after a loss of this one).
      this.overlay?.dispose();
      this.overlay = new LineOverlay(frame.gl);
      this.gl = frame.gl;
    }
    const model = frame.animated, d = frame.displayMatrix, o = model.origin;
    const sx = d[0] * o[0] + d[4] * o[1] + d[8] * o[2], sy = d[1] * o[0] + d[5] * o[1] + d[9] * o[2], sz = d[2] * o[0] + d[6] * o[1] + d[10] * o[2];
    const tilt = (this.values.tilt * Math.PI) / 180, c = Math.cos(tilt), s = Math.sin(tilt);
    // The plane's point under the hips now, and its two axes: along the slope (cos, sin, 0) and world Z.
    const hips = model.jointMatrix(feet.pelvis, this.m);
    const px = hips[12], pz = hips[14];
    const py = this.groundY + ((px - this.anchorX) * s) / c;
    const half = 0.6 * this.gridSize, step = (2 * half) / (LINE_COUNT - 1);
    const pos = this.positions;
    let v = 0;
    const put = (u: number, w: number): void => {
      pos[3 * v] = px + u * c - sx; pos[3 * v + 1] = py + u * s - sy; pos[3 * v + 2] = pz + w - sz;
      v++;
    };
    for (let i = 0; i < LINE_COUNT; i++) {
      const k = -half + i * step;
      put(k, -half); put(k, half);
      put(-half, k); put(half, k);
    }
    this.overlay.drawLines(frame.renderer.lastViewProjection, pos, this.colors, v);
  }

  private refreshControls(): void {
    const label = (base: string, reason: string | null): string => (reason ? `${base} (${reason})` : base);
    this.lookAtController.name(label('Look at the cursor', this.lookAtReason)).enable(!this.lookAtReason);
    this.feetController.name(label('Feet on tilted ground', this.feetReason)).enable(!this.feetReason);
    this.tiltController.enable(!this.feetReason);
  }
}

/**
 * The way the model faces, world space, horizontal: the mean of its feet's ankle → toe directions (the ankle's
 * first child; `findLegs`), which a walking rig's feet point along whatever its file's convention; else world +Z,
 * glTF's front (glTF 2.0 §3.4).
 */
function facingOf(model: AnimatedModel): Float64Array {
  const skeleton = model.asset.skeleton, m = new Float64Array(16);
  let x = 0, z = 0;
  for (const leg of findLegs(skeleton)) {
    const toe = skeleton.parents.indexOf(leg.end);
    if (toe < 0) continue;
    const ankle = model.jointMatrix(leg.end, m), ax = ankle[12], az = ankle[14];
    const tip = model.jointMatrix(toe, m);
    const dx = tip[12] - ax, dz = tip[14] - az, l = Math.sqrt(dx * dx + dz * dz);
    if (l > 0) { x += dx / l; z += dz / l; }
  }
  const l = Math.sqrt(x * x + z * z);
  return l > 0.5 ? Float64Array.of(x / l, 0, z / l) : Float64Array.of(0, 0, 1);
}

/** The knee's hinge from the pose shown, else the rest pose (a leg straight in both cannot say which way it bends). */
function kneeAxis(model: AnimatedModel, start: number, mid: number, end: number): Float64Array {
  const skeleton = model.asset.skeleton, out = new Float64Array(3);
  try {
    return midAxisFromPose(out, skeleton, model.pose, start, mid, end);
  } catch {
    return midAxisFromPose(out, skeleton, model.asset.restPose, start, mid, end);
  }
}
