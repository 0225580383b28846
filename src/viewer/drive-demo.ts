import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { ModelAsset } from '../asset/model-asset.ts';
import { AnimationEventList } from '../animation/animation-events.ts';
import { Animator } from '../animation/animator.ts';
import { AnimationGraph } from '../animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../animation/graph/animation-graph-driver.ts';
import { applyPlacement, findMotionRoot } from '../animation/root-motion.ts';
import { LineOverlay } from '../gpu/debug/line-overlay.ts';
import { FootPlacementJob } from '../ik/foot-placement-job.ts';
import { poseJointMatrix } from '../ik/pose-joint-matrix.ts';
import { commonAncestor, findLegs } from '../ik/rig-names.ts';
import { midAxisFromPose } from '../ik/two-bone-ik-job.ts';
import { readAnimationGraph } from '../loaders/animation-graph/read-animation-graph.ts';
import { DRIVE_GRAPH } from '../procedural/avatar/drive-graph.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { ModelView } from '../view/model-view.ts';
import type { ViewFrame } from '../view/view-frame.ts';
import { messageOf } from '../errors/message-of.ts';
import { DRIVE_AVATAR_NAME, driveAvatarAsset } from './drive-avatar.ts';
import { DriveInput } from './drive-input.ts';

/** What the Drive folder shows (for the panel and the test hooks). */
export interface DriveDemoState {
  /** The drive runs: the Drive avatar is shown, driven by the graph. */
  enabled: boolean;
  /** Why switching on failed, or null. */
  error: string | null;
  /** The Base layer's active state (`Locomotion`, `Jump`), '' when off. */
  activeState: string;
  /** The graph's parameters by name (booleans and triggers as 1 / 0). */
  parameters: Record<string, number>;
  /** The character's place on the ground: x, z (metres) and heading (radians about +Y; 0 faces +Z). */
  position: [number, number];
  heading: number;
  /** States entered since switching on, in order (the graph's `state-enter` events). */
  entered: string[];
}

/** The ankles' height above the ground in the avatar's rest pose, metres (avatar-bones.ts). */
const ANKLE_HEIGHT = 0.08;
/** The follow camera: distance (metres), pitch (radians), target height (metres), smoothing time constant (seconds). */
const FOLLOW = { distance: 4.5, pitch: 0.3, height: 1.0, smoothing: 0.3 };
const GRID_LINES = 21;
const GRID_COLOR = [0.45, 0.8, 0.55, 0.55];

/** Who the folder works for: the view, and how a model is shown (the viewer's guarded load). */
export interface DriveHost {
  readonly view: ModelView;
  /** Shows `asset` (replacing the model shown), saying so in the panel; false when it failed (the banner says why). */
  show(asset: ModelAsset): Promise<boolean>;
}

/**
 * The viewer's "Drive" folder (`#sinew-drive`): "Drive the avatar" (`data-control="drive"`) shows the generated
 * avatar with its locomotion clips (`driveAvatarAsset`) on a ground grid, played by the Drive animation graph
 * (`DRIVE_GRAPH`: Idle / Walk / Run in a synchronised 1D tree on `speed`, Jump on a trigger) and steered from the
 * keyboard (↑ ↓ speed, ← → turn, J jump: `DriveInput`) or a gamepad (left stick, button 0). Each frame: the input
 * sets the graph's `speed`, `turn` and `jump`; the graph drives its own `Animator` (root motion applied: the
 * travel accumulates in its placement, which the steering turns by `turn · dt`, and a jump carries the speed it
 * took off with); its `take-off` and `land` markers set `grounded`; the pose goes into the shown model as its first
 * pose job (the view's own animator holds four clips a layer, fewer than the graph's crossfades need), moved by the
 * placement; a `FootPlacementJob` puts the lower foot at its ankle height on the ground (y = 0) and keeps the other
 * as high above it as the clip lifts it (off in the air); the camera follows from behind and above, smoothed.
 * Readouts: active state, speed, turn, grounded, position. The folder steps on its own animation frames while on;
 * {@link step} (the test hooks) steps it by a given dt instead, and stops those frames.
 */
export class DriveDemo {
  readonly folder: GUI;
  readonly input = new DriveInput();
  private readonly values = { drive: false };
  private readonly readouts = { state: '', speed: '0.00 m/s', turn: '0.00 rad/s', grounded: 'yes', position: '0.00, 0.00' };
  private readonly driveController: Controller;
  private readonly readoutControllers: Controller[];
  private model: AnimatedModel | null = null;
  private graph: AnimationGraph | null = null;
  private driver: AnimationGraphDriver | null = null;
  private feet: FootPlacementJob | null = null;
  private jobs: PoseJob[] = [];
  private readonly events = new AnimationEventList();
  private jumpState = -1;
  private carried = 0;
  private error: string | null = null;
  private readonly entered: string[] = [];
  private frameRequest = 0;
  private lastFrameMs = -1;
  private overlay: LineOverlay | null = null;
  private gl: WebGL2RenderingContext | null = null;
  private readonly positions = new Float32Array(3 * 4 * GRID_LINES);
  private readonly colors = new Float32Array(4 * 4 * GRID_LINES);
  private readonly m = new Float64Array(16);
  private readonly pads: (Gamepad | null)[] = [];

  constructor(private readonly host: DriveHost, gui: GUI) {
    this.folder = gui.addFolder('Drive');
    this.folder.domElement.id = 'sinew-drive';
    const tag = (controller: Controller, name: string): Controller => {
      controller.domElement.dataset.control = name;
      return controller;
    };
    this.driveController = tag(this.folder.add(this.values, 'drive').name('Drive the avatar (↑ ↓ ← →, J)').onChange((on: boolean) => void this.set({ on })), 'drive');
    this.readoutControllers = [
      tag(this.folder.add(this.readouts, 'state').name('State'), 'drive-state'),
      tag(this.folder.add(this.readouts, 'speed').name('speed'), 'drive-speed'),
      tag(this.folder.add(this.readouts, 'turn').name('turn'), 'drive-turn'),
      tag(this.folder.add(this.readouts, 'grounded').name('grounded'), 'drive-grounded'),
      tag(this.folder.add(this.readouts, 'position').name('Position (m)'), 'drive-position'),
    ];
    for (const c of this.readoutControllers) c.disable();
    for (let i = 0; i < 4 * GRID_LINES; i++) this.colors.set(GRID_COLOR, 4 * i);
    const keys = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
    window.addEventListener('keydown', (e) => {
      if (!this.driver || !keys.has(e.code) || typingInto(e.target)) return;
      e.preventDefault();
      this.input.press(e.code);
    });
    window.addEventListener('keyup', (e) => this.input.release(e.code));
    window.addEventListener('blur', () => this.input.releaseAll());
    host.view.addStage({ afterDraw: (frame) => this.drawGround(frame) });
  }

  /** Whether the drive runs. */
  get enabled(): boolean {
    return this.driver !== null;
  }

  /**
   * Switches the drive on (shows the Drive avatar, resolving once it is shown and driven) or off (the avatar stays,
   * standing; its clips stay in the clip list). Returns the state.
   */
  async set(settings: { on?: boolean }): Promise<DriveDemoState> {
    if (settings.on === true && !this.driver) {
      this.values.drive = true;
      this.driveController.updateDisplay();
      this.error = null;
      try {
        const asset = await driveAvatarAsset();
        if (this.values.drive) await this.host.show(asset); // modelShown() sets the drive up
      } catch (error) {
        this.error = messageOf(error);
      }
      if (!this.driver) this.switchOff();
    } else if (settings.on === false) {
      this.switchOff();
    }
    return this.state();
  }

  /** Asks for a jump (the J key and the test hooks). */
  jump(): void {
    if (this.driver) this.input.jump();
  }

  /** A model was shown (the view's `shown`): the Drive avatar is set up and driven; any other model ends the drive. */
  modelShown(): void {
    const model = this.host.view.animated;
    this.detach();
    if (!model || model.asset.name !== DRIVE_AVATAR_NAME || !this.values.drive) {
      if (this.values.drive) this.switchOff();
      return;
    }
    try {
      this.attach(model);
    } catch (error) {
      this.error = messageOf(error);
      this.switchOff();
      return;
    }
    this.host.view.pause();
    this.host.view.selectClip(-1, 0);
    this.lastFrameMs = -1;
    this.frameRequest = requestAnimationFrame((now) => this.onFrame(now));
  }

  /**
   * Moves the drive on by `dtSeconds` (≥ 0): reads the input, runs the graph and the animator, places the character
   * and the camera, and draws. Stops the folder's own animation frames: the caller steps from now on.
   */
  step(dtSeconds: number): DriveDemoState {
    cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.advance(dtSeconds);
    return this.state();
  }

  /** What the folder shows. */
  state(): DriveDemoState {
    const graph = this.graph, driver = this.driver;
    const parameters: Record<string, number> = {};
    if (graph && driver) for (const name of graph.layout.parameterNames) parameters[name] = graph.getParameter(driver.state, name);
    const p = driver?.animator.placement;
    return {
      enabled: !!driver, error: this.error, activeState: graph && driver ? graph.activeState(driver.state) : '', parameters,
      position: p ? [p[0], p[1]] : [0, 0], heading: p ? p[2] : 0, entered: [...this.entered],
    };
  }

  private onFrame(nowMs: number): void {
    if (!this.driver) return;
    const dt = this.lastFrameMs < 0 ? 0 : Math.min(0.1, (nowMs - this.lastFrameMs) / 1000);
    this.lastFrameMs = nowMs;
    this.advance(dt);
    this.frameRequest = requestAnimationFrame((now) => this.onFrame(now));
  }

  private advance(dt: number): void {
    const graph = this.graph, driver = this.driver, model = this.model, feet = this.feet;
    if (!graph || !driver || !model || !feet) return;
    const state = driver.state, placement = driver.animator.placement;
    const pads = typeof navigator.getGamepads === 'function' ? navigator.getGamepads() : this.pads;
    let pad: Gamepad | null = null;
    for (let i = 0; i < pads.length && !pad; i++) pad = pads[i];
    const command = this.input.read(dt, pad);
    graph.setParameter(state, 'speed', command.speed);
    graph.setParameter(state, 'turn', command.turn);
    if (command.jump) graph.setParameter(state, 'jump', true);
    driver.update(dt, this.events);
    const events = this.events;
    for (let i = 0; i < events.length; i++) {
      const e = events.events[i];
      if (e.type === 'state-enter') this.entered.push(e.name);
      else if (e.type === 'marker' && e.name === 'take-off') {
        graph.setParameter(state, 'grounded', false);
        this.carried = command.speed;
      } else if (e.type === 'marker' && e.name === 'land') graph.setParameter(state, 'grounded', true);
    }
    // Steering turns the placement; a jump carries the speed it took off with (the Jump clip does not travel).
    const jump = graph.stateWeight(state, this.jumpState);
    placement[2] += command.turn * dt;
    placement[0] += Math.sin(placement[2]) * this.carried * jump * dt;
    placement[1] += Math.cos(placement[2]) * this.carried * jump * dt;
    if (jump === 0) this.carried = 0;
    feet.weight = graph.getParameter(state, 'grounded') ? 1 : 0;
    model.secondaryMotion?.step(dt);
    this.follow(dt, model, feet.pelvis);
    this.host.view.renderOnce();
    this.showReadouts(graph.activeState(state), command.speed, command.turn, graph.getParameter(state, 'grounded') !== 0, placement);
  }

  /** Moves the camera toward behind and above the hips (eye on the side the character turns its back to). */
  private follow(dt: number, model: AnimatedModel, pelvis: number): void {
    const camera = this.host.view.camera, placement = this.driver!.animator.placement;
    const hips = poseJointMatrix(this.m, model.asset.skeleton, model.pose, pelvis);
    const k = dt > 0 ? Math.min(1, dt / FOLLOW.smoothing) : 0;
    camera.target[0] += (hips[12] - camera.target[0]) * k;
    camera.target[1] += (FOLLOW.height - camera.target[1]) * k;
    camera.target[2] += (hips[14] - camera.target[2]) * k;
    const behind = placement[2] + Math.PI;
    camera.yaw += Math.atan2(Math.sin(behind - camera.yaw), Math.cos(behind - camera.yaw)) * k;
  }

  private showReadouts(active: string, speed: number, turn: number, grounded: boolean, placement: Float64Array): void {
    const r = this.readouts;
    r.state = active;
    r.speed = `${speed.toFixed(2)} m/s`;
    r.turn = `${turn.toFixed(2)} rad/s`;
    r.grounded = grounded ? 'yes' : 'no';
    r.position = `${placement[0].toFixed(2)}, ${placement[1].toFixed(2)}`;
    for (const c of this.readoutControllers) c.updateDisplay();
  }

  /**
   * Sets the drive up on the Drive avatar just shown: the graph over its compiled clips, an animator and driver,
   * the pose jobs (the graph's pose, the feet's heights, the feet), the camera behind it.
   * @throws LoadError / RangeError when the graph does not fit the clips (it always does)
   */
  private attach(model: AnimatedModel): void {
    const { graph: asset } = readAnimationGraph(DRIVE_GRAPH, { file: 'drive.json', clipNames: model.clips.map((c) => c.name) });
    const graph = new AnimationGraph(asset, model.clips);
    const skeleton = model.asset.skeleton, restPose = model.asset.restPose;
    const animator = new Animator(skeleton.jointCount, { maxClipsPerLayer: graph.maxClipsPerLayer(), motionRoot: findMotionRoot(skeleton, restPose, model.clips) });
    animator.rootMotion = 'applied';
    const driver = new AnimationGraphDriver(graph, animator);
    const legs = findLegs(skeleton);
    if (legs.length !== 2) throw new Error(`${model.asset.name}: no left and right legs`);
    // The knees' hinge from the idle's first pose, whose knees are slightly bent.
    model.evaluate(model.clipSample(model.clips.findIndex((c) => c.name === 'Idle')).at(0));
    const feet = new FootPlacementJob(skeleton, {
      pelvis: commonAncestor(skeleton, legs.map((leg) => leg.start)),
      legs: legs.map(({ start, mid, end }) => ({ start, mid, end, midAxis: midAxisFromPose(new Float64Array(3), skeleton, model.pose, start, mid, end) })),
      ankleHeight: ANKLE_HEIGHT,
    });
    const roots = Int32Array.from(skeleton.parents.reduce<number[]>((list, parent, j) => (parent < 0 ? [...list, j] : list), []));
    const ankles = Int32Array.from(legs.map((leg) => leg.end));
    this.jobs = [new GraphPoseJob(animator, restPose, roots), new AnkleLiftJob(feet, ankles, this.m), feet];
    model.poseJobs.unshift(...this.jobs);
    this.model = model;
    this.graph = graph;
    this.driver = driver;
    this.feet = feet;
    this.jumpState = graph.stateIndex(0, 'Jump');
    this.carried = 0;
    this.entered.length = 0;
    this.input.reset();
    const camera = this.host.view.camera;
    camera.distance = FOLLOW.distance;
    camera.pitch = FOLLOW.pitch;
    camera.yaw = Math.PI;
    camera.sceneRadius = Math.max(camera.sceneRadius, 2);
    camera.target.set([0, FOLLOW.height, 0]);
    this.advance(0);
  }

  /** Takes the drive's jobs out of the model they were put on, and forgets it. */
  private detach(): void {
    cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    const jobs = this.model?.poseJobs;
    if (jobs) for (let i = jobs.length - 1; i >= 0; i--) if (this.jobs.includes(jobs[i])) jobs.splice(i, 1);
    this.jobs = [];
    this.model = null;
    this.graph = null;
    this.driver = null;
    this.feet = null;
  }

  private switchOff(): void {
    this.detach();
    this.values.drive = false;
    this.driveController.updateDisplay();
    this.host.view.requestRedraw();
  }

  /** The ground (y = 0) as a grid of 1 m around the hips, in the overlay's space (display space minus mat3(display)·origin). */
  private drawGround(frame: ViewFrame): void {
    const feet = this.feet;
    if (!feet || frame.animated !== this.model) return;
    if (!this.overlay || this.gl !== frame.gl) {
      this.overlay?.dispose();
      this.overlay = new LineOverlay(frame.gl);
      this.gl = frame.gl;
    }
    const model = frame.animated, d = frame.displayMatrix, o = model.origin;
    const sx = d[0] * o[0] + d[4] * o[1] + d[8] * o[2], sy = d[1] * o[0] + d[5] * o[1] + d[9] * o[2], sz = d[2] * o[0] + d[6] * o[1] + d[10] * o[2];
    const hips = model.jointMatrix(feet.pelvis, this.m);
    const cx = Math.round(hips[12]), cz = Math.round(hips[14]), half = (GRID_LINES - 1) / 2;
    const pos = this.positions;
    let v = 0;
    const put = (x: number, z: number): void => {
      pos[3 * v] = x - sx; pos[3 * v + 1] = -sy; pos[3 * v + 2] = z - sz;
      v++;
    };
    for (let i = 0; i < GRID_LINES; i++) {
      const k = i - half;
      put(cx + k, cz - half); put(cx + k, cz + half);
      put(cx - half, cz + k); put(cx + half, cz + k);
    }
    this.overlay.drawLines(frame.renderer.lastViewProjection, pos, this.colors, v);
  }
}

/**
 * The Drive graph's pose as the shown model's first pose job: the graph's animator evaluated over the rest pose
 * (the view's animator plays nothing), then moved by the animator's placement (`applyPlacement`, as
 * `AnimatedModel.evaluate` does for its own animator in `applied` root motion).
 */
class GraphPoseJob implements PoseJob {
  constructor(private readonly animator: Animator, private readonly restPose: LocalPose, private readonly roots: Int32Array) {}

  apply(pose: LocalPose): void {
    this.animator.evaluate(pose, this.restPose);
    applyPlacement(pose, this.roots, this.animator.placement);
  }
}

/**
 * Sets a {@link FootPlacementJob}'s ankle heights from the pose before it runs: the lower ankle at the rest ankle
 * height above the ground, the other as far above that as the clip has it (a foot in its swing stays lifted).
 */
class AnkleLiftJob implements PoseJob {
  constructor(private readonly feet: FootPlacementJob, private readonly ankles: Int32Array, private readonly m: Float64Array) {}

  apply(pose: LocalPose, skeleton: Skeleton): void {
    const heights = this.feet.ankleHeights;
    let lowest = Infinity;
    for (let i = 0; i < this.ankles.length; i++) {
      heights[i] = poseJointMatrix(this.m, skeleton, pose, this.ankles[i])[13];
      if (heights[i] < lowest) lowest = heights[i];
    }
    for (let i = 0; i < this.ankles.length; i++) heights[i] += ANKLE_HEIGHT - lowest;
  }
}

/** Whether a key event goes to one of the panel's inputs (its keys are the input's, not the drive's). */
function typingInto(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.tagName === 'INPUT' || element.tagName === 'SELECT' || element.tagName === 'TEXTAREA');
}
