import { quat } from 'gl-matrix';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import type { ClipMarker } from '../../asset/animation-clip.ts';

/** The generated avatar's locomotion clips, by the names an animation graph gives them (the Drive example's graph). */
export type LocomotionClipName = 'Idle' | 'Walk' | 'Run' | 'Jump';

/** Every locomotion clip, in the order the Drive example's files list them. */
export const LOCOMOTION_CLIPS: readonly LocomotionClipName[] = ['Idle', 'Walk', 'Run', 'Jump'];

/** Metres per second the walk carries its hips forward (+Z), a brisk human walk. */
export const WALK_SPEED = 1.4;
/** Metres per second the run carries its hips forward (+Z), a jog. */
export const RUN_SPEED = 3.5;
/** Seconds per walk cycle (two steps: left foot down at 0, right at half). */
export const WALK_CYCLE = 1.0;
/** Seconds per run cycle (two strides), shorter than the walk's: a run's cadence is higher. */
export const RUN_CYCLE = 0.66;
/** Seconds per breath of the idle. */
export const IDLE_CYCLE = 3.0;
/** Seconds of the jump: crouch, take-off, air, landing; it does not loop. */
export const JUMP_DURATION = 1.0;
/** Seconds into the jump when the feet leave the ground. */
export const JUMP_TAKE_OFF = 0.4;
/** Seconds into the jump when the feet touch the ground again. */
export const JUMP_LAND = 0.75;
/** Names of the foot-contact markers of Walk and Run: the left foot down at phase 0, the right at phase 0.5. */
export const FOOT_MARKERS = { left: 'left-foot-down', right: 'right-foot-down' } as const;

/** What one locomotion clip is: its length, travel and markers. */
export interface LocomotionClipSpec {
  readonly name: LocomotionClipName;
  /** Seconds. */
  readonly duration: number;
  /** Metres per second the hips travel forward (+Z); 0 for clips that stay in place. */
  readonly speed: number;
  /** Whether the clip is a cycle (its last key is its first, moved on by speed × duration). */
  readonly loop: boolean;
  /** Clip markers (`AnimationClip.markers`): seconds and names. */
  readonly markers: readonly ClipMarker[];
}

/** The clips' lengths, travel and markers. */
export const LOCOMOTION_SPECS: Readonly<Record<LocomotionClipName, LocomotionClipSpec>> = {
  Idle: { name: 'Idle', duration: IDLE_CYCLE, speed: 0, loop: true, markers: [] },
  Walk: {
    name: 'Walk', duration: WALK_CYCLE, speed: WALK_SPEED, loop: true,
    markers: [{ time: 0, name: FOOT_MARKERS.left }, { time: WALK_CYCLE / 2, name: FOOT_MARKERS.right }],
  },
  Run: {
    name: 'Run', duration: RUN_CYCLE, speed: RUN_SPEED, loop: true,
    markers: [{ time: 0, name: FOOT_MARKERS.left }, { time: RUN_CYCLE / 2, name: FOOT_MARKERS.right }],
  },
  Jump: {
    name: 'Jump', duration: JUMP_DURATION, speed: 0, loop: false,
    markers: [{ time: JUMP_TAKE_OFF, name: 'take-off' }, { time: JUMP_LAND, name: 'land' }],
  },
};

/** The bones {@link locomotionPose} turns, in a fixed order. */
export const LOCOMOTION_BONES: readonly HumanoidBoneName[] = [
  'hips', 'spine', 'chest', 'neck', 'head', 'leftUpperArm', 'rightUpperArm', 'leftLowerArm', 'rightLowerArm',
  'leftUpperLeg', 'rightUpperLeg', 'leftLowerLeg', 'rightLowerLeg', 'leftFoot', 'rightFoot',
];

/** The generated avatar's thigh and shin, metres (hip 0.88 → knee 0.48 → ankle 0.08 in avatar-bones.ts). */
const SEGMENT = 0.4;
/** The ankle's rest height above the ground, metres (avatar-bones.ts). */
const ANKLE_HEIGHT = 0.08;
/** The hip joints' height, metres (avatar-bones.ts): the legs hang from here. */
const HIP_JOINT_HEIGHT = 0.88;
const DEG = Math.PI / 180;

/** A gait (walk, run): cycle, speed, the share of the cycle a foot is down, and the swing's shape. */
interface Gait {
  readonly cycle: number;
  readonly speed: number;
  /** Share of the cycle each foot is on the ground (0.5 walks with no double support or flight; below, a run's flight). */
  readonly stance: number;
  /** Knee bend at mid-swing, degrees. */
  readonly kneeSwing: number;
  /** Knee bend at mid-stance, degrees (a run's give). */
  readonly kneeStance: number;
  /** Hips rise in flight, metres. */
  readonly flightRise: number;
  /** Forward lean of the spine; the shoulders' twist against the legs; arm swing; elbow bend: degrees. */
  readonly lean: number;
  readonly torsoTwist: number;
  readonly armSwing: number;
  readonly elbow: number;
}

const WALK: Gait = { cycle: WALK_CYCLE, speed: WALK_SPEED, stance: 0.5, kneeSwing: 45, kneeStance: 0, flightRise: 0, lean: 2, torsoTwist: 6, armSwing: 18, elbow: 15 };
const RUN: Gait = { cycle: RUN_CYCLE, speed: RUN_SPEED, stance: 0.36, kneeSwing: 95, kneeStance: 20, flightRise: 0.03, lean: 10, torsoTwist: 10, armSwing: 35, elbow: 80 };

/** One leg: thigh forward angle, knee bend (radians), and the ankle's height above the hip joint (metres, negative). */
interface LegPose { thigh: number; knee: number; drop: number }

/**
 * A leg of the gait at its own phase p ∈ [0, 1) (0: the foot comes down). On the ground (p < stance) the ankle
 * moves back from +D to −D at constant speed relative to the hips, D = speed · stance · cycle / 2, so the foot
 * stays where it came down while the hips travel; in the air it swings forward on a half cosine with the knee
 * bent. Thigh and shin are equal, so a knee bent by κ leaves the hip–ankle line 2·SEGMENT·cos(κ/2) long with the
 * thigh κ/2 ahead of it.
 */
function legAt(gait: Gait, p: number, out: LegPose): LegPose {
  const D = (gait.speed * gait.stance * gait.cycle) / 2;
  let d: number, knee: number;
  if (p < gait.stance) {
    const u = p / gait.stance;
    d = D * (1 - 2 * u);
    knee = gait.kneeStance * DEG * Math.sin(Math.PI * u);
  } else {
    const u = (p - gait.stance) / (1 - gait.stance);
    d = -D + D * (1 - Math.cos(Math.PI * u));
    knee = gait.kneeSwing * DEG * Math.sin(Math.PI * u);
  }
  const line = 2 * SEGMENT * Math.cos(knee / 2);
  const angle = Math.asin(Math.max(-1, Math.min(1, d / line)));
  out.thigh = angle + knee / 2;
  out.knee = knee;
  out.drop = -line * Math.cos(angle);
  return out;
}

/** Sets every bone of {@link LOCOMOTION_BONES} to identity (the T-pose), the pose each clip's turns start from. */
function restRotations(rotations: Map<HumanoidBoneName, quat>): void {
  for (const bone of LOCOMOTION_BONES) rotations.set(bone, quat.identity(rotations.get(bone) ?? quat.create()));
}

/** Turns: applied in order, each about a model axis (q = qn … q1), as walkPose does. */
function set(rotations: Map<HumanoidBoneName, quat>, bone: HumanoidBoneName, ...turns: [axis: [number, number, number], degrees: number][]): void {
  const q = quat.identity(rotations.get(bone) ?? quat.create());
  const step = quat.create();
  for (const [axis, degrees] of turns) quat.multiply(q, quat.setAxisAngle(step, axis, degrees * DEG), q);
  rotations.set(bone, q);
}

/** Sets one leg from its thigh angle and knee bend (radians), the foot kept level with the ground. */
function setLeg(rotations: Map<HumanoidBoneName, quat>, side: 'left' | 'right', thigh: number, knee: number): void {
  // Legs along −Y: a negative turn about X swings the foot forward (+Z); the knee bends it back.
  set(rotations, `${side}UpperLeg`, [[1, 0, 0], -thigh / DEG]);
  set(rotations, `${side}LowerLeg`, [[1, 0, 0], knee / DEG]);
  set(rotations, `${side}Foot`, [[1, 0, 0], (thigh - knee) / DEG]);
}

/** Sets the arms: down at the sides, swung forward by `left` / `right` degrees, elbows bent by `elbow`. */
function setArms(rotations: Map<HumanoidBoneName, quat>, left: number, right: number, elbow: number, raise = 0): void {
  // Left arm on +X: down is −70° about Z; forward (+Z) swing about X of the lowered arm (walkPose's convention).
  set(rotations, 'leftUpperArm', [[0, 0, 1], -70 + raise], [[1, 0, 0], -left]);
  set(rotations, 'rightUpperArm', [[0, 0, 1], 70 - raise], [[1, 0, 0], -right]);
  set(rotations, 'leftLowerArm', [[0, 1, 0], elbow]);
  set(rotations, 'rightLowerArm', [[0, 1, 0], -elbow]);
}

const legScratch = [{ thigh: 0, knee: 0, drop: 0 }, { thigh: 0, knee: 0, drop: 0 }];

/** A gait at `time` seconds: the legs from {@link legAt}, the hips at the grounded foot's height (or in flight). */
function gaitPose(gait: Gait, rotations: Map<HumanoidBoneName, quat>, hipsOffset: Float32Array, time: number): void {
  const phase = time / gait.cycle;
  const pl = phase - Math.floor(phase), pr = (pl + 0.5) % 1;
  const left = legAt(gait, pl, legScratch[0]), right = legAt(gait, pr, legScratch[1]);
  // The hips hang the grounded leg's ankle at the ankle's rest height; in flight (no foot down: runs only) they
  // rise on a half sine from the height at lift-off to the height at touch-down, which are equal.
  let hip: number;
  const downL = pl < gait.stance, downR = pr < gait.stance;
  if (downL || downR) {
    hip = ANKLE_HEIGHT - Math.min(downL ? left.drop : 0, downR ? right.drop : 0);
  } else {
    const lift = legAt(gait, 0, { thigh: 0, knee: 0, drop: 0 });
    const w = ((pl < 0.5 ? pl : pl - 0.5) - gait.stance) / (0.5 - gait.stance);
    hip = ANKLE_HEIGHT - lift.drop + gait.flightRise * Math.sin(Math.PI * w);
  }
  hipsOffset[0] = 0;
  hipsOffset[1] = hip - HIP_JOINT_HEIGHT;
  hipsOffset[2] = gait.speed * time;
  // The hips do not turn: they are the motion root, whose yaw root motion reads as the character turning. The
  // shoulders turn against the forward leg instead (left foot forward: the right shoulder forward, about +Y).
  const swing = Math.cos(2 * Math.PI * pl);
  set(rotations, 'spine', [[1, 0, 0], gait.lean], [[0, 1, 0], gait.torsoTwist * 0.4 * swing]);
  set(rotations, 'chest', [[0, 1, 0], gait.torsoTwist * 0.6 * swing]);
  set(rotations, 'neck', [[1, 0, 0], -gait.lean * 0.5]);
  set(rotations, 'head', [[1, 0, 0], -gait.lean * 0.3], [[0, 1, 0], -gait.torsoTwist * swing]);
  // Arms swing against the legs: the left arm back while the left foot is forward.
  setArms(rotations, -gait.armSwing * swing, gait.armSwing * swing, gait.elbow);
  setLeg(rotations, 'left', left.thigh, left.knee);
  setLeg(rotations, 'right', right.thigh, right.knee);
}

/** The idle: standing, a slow breath lifting the chest and the shoulders, the weight shifting a little. */
function idlePose(rotations: Map<HumanoidBoneName, quat>, hipsOffset: Float32Array, time: number): void {
  const breath = 0.5 - 0.5 * Math.cos((2 * Math.PI * time) / IDLE_CYCLE);
  const sway = Math.sin((2 * Math.PI * time) / IDLE_CYCLE);
  // Knees soft by a few degrees, the hips lowered to keep the feet on the ground.
  const knee = (4 + 1.5 * breath) * DEG;
  hipsOffset[0] = 0.006 * sway;
  hipsOffset[1] = ANKLE_HEIGHT + 2 * SEGMENT * Math.cos(knee / 2) - HIP_JOINT_HEIGHT;
  hipsOffset[2] = 0;
  set(rotations, 'spine', [[1, 0, 0], -1.5 * breath]);
  set(rotations, 'chest', [[1, 0, 0], -2 * breath]);
  set(rotations, 'neck', [[1, 0, 0], 1.5 * breath]);
  set(rotations, 'head', [[1, 0, 0], 1 * breath], [[0, 1, 0], 4 * sway]);
  setArms(rotations, 3 + 2 * breath, 3 + 2 * breath, 12 + 3 * breath, 2 * breath);
  for (const side of ['left', 'right'] as const) setLeg(rotations, side, knee / 2, knee);
}

/**
 * The hips' height offset through the jump, metres: down into a crouch (−0.15 m by 0.3 s), up to standing at
 * take-off ({@link JUMP_TAKE_OFF}), a half sine in the air peaking 0.3 m up, down at {@link JUMP_LAND}, absorbing
 * the landing (−0.12 m at 0.85 s) and standing again at {@link JUMP_DURATION}.
 */
export function jumpHipsHeight(time: number): number {
  const t = Math.max(0, Math.min(JUMP_DURATION, time));
  if (t < 0.3) return -0.15 * (1 - Math.cos((Math.PI * t) / 0.3)) / 2;
  if (t < JUMP_TAKE_OFF) return -0.15 * (1 + Math.cos((Math.PI * (t - 0.3)) / (JUMP_TAKE_OFF - 0.3))) / 2;
  if (t < JUMP_LAND) return 0.3 * Math.sin((Math.PI * (t - JUMP_TAKE_OFF)) / (JUMP_LAND - JUMP_TAKE_OFF));
  if (t < 0.85) return -0.12 * Math.sin(((Math.PI / 2) * (t - JUMP_LAND)) / (0.85 - JUMP_LAND));
  return -0.12 * (1 + Math.cos((Math.PI * (t - 0.85)) / (JUMP_DURATION - 0.85))) / 2;
}

/** The jump: the hips follow {@link jumpHipsHeight}; on the ground the knees bend to keep the feet down, in the air they tuck. */
function jumpPose(rotations: Map<HumanoidBoneName, quat>, hipsOffset: Float32Array, time: number): void {
  const h = jumpHipsHeight(time);
  const air = time > JUMP_TAKE_OFF && time < JUMP_LAND ? Math.sin((Math.PI * (time - JUMP_TAKE_OFF)) / (JUMP_LAND - JUMP_TAKE_OFF)) : 0;
  // Grounded: the hip–ankle line is the hips' height above the ankle, 2·SEGMENT·cos(κ/2). In the air: a tuck.
  const knee = air > 0 ? 50 * DEG * air : 2 * Math.acos(Math.min(1, (2 * SEGMENT + Math.min(0, h)) / (2 * SEGMENT)));
  hipsOffset[0] = 0;
  hipsOffset[1] = h;
  hipsOffset[2] = 0;
  const crouch = Math.max(0, -h) / 0.15;
  set(rotations, 'spine', [[1, 0, 0], 20 * crouch]);
  set(rotations, 'chest', [[1, 0, 0], 5 * crouch]);
  set(rotations, 'head', [[1, 0, 0], -15 * crouch]);
  // Arms back in the crouch, up and out in the air.
  setArms(rotations, -35 * crouch + 40 * air, -35 * crouch + 40 * air, 20, 35 * air);
  for (const side of ['left', 'right'] as const) setLeg(rotations, side, knee / 2, knee);
}

/**
 * A pose of locomotion clip `name` at `time` seconds, as normalised humanoid rotations (each bone's rotation
 * relative to its parent in frames aligned with the model's axes, identity = the T-pose facing +Z: VRM 1.0's
 * normalised bones, as VRMA tracks are) and the hips' offset from their rest position (metres), for the
 * generated avatar's proportions (avatar-bones.ts: legs of two 0.4 m segments, ankles 0.08 m up):
 * - `Walk` and `Run`: the hips travel forward (+Z) at {@link WALK_SPEED} / {@link RUN_SPEED}; each foot, once
 *   down, stays where it came down while the hips pass over it (the ankle moves back at the travel speed relative
 *   to the hips), so root motion moves the character without the feet sliding. The left foot comes down at phase
 *   0, the right at 0.5 ({@link FOOT_MARKERS}). The run has a flight phase (each foot down 36 % of the cycle).
 *   Every rotation and the hips' height are periodic: `t` and `t + cycle` differ only by the travel.
 * - `Idle`: standing, breathing once per {@link IDLE_CYCLE}; periodic.
 * - `Jump`: crouch, take-off at {@link JUMP_TAKE_OFF}, air, landing at {@link JUMP_LAND}, standing at
 *   {@link JUMP_DURATION}; the hips rise and fall ({@link jumpHipsHeight}), no travel.
 * The feet stay level with the ground in every clip. Allocates nothing once `rotations` holds every bone.
 * @param rotations written: each of {@link LOCOMOTION_BONES} → a unit quaternion (x, y, z, w)
 * @param hipsOffset written: the hips' offset from their rest position (0, 0.92, 0), metres
 */
export function locomotionPose(name: LocomotionClipName, rotations: Map<HumanoidBoneName, quat>, hipsOffset: Float32Array, time: number): void {
  restRotations(rotations);
  if (name === 'Walk') gaitPose(WALK, rotations, hipsOffset, time);
  else if (name === 'Run') gaitPose(RUN, rotations, hipsOffset, time);
  else if (name === 'Idle') idlePose(rotations, hipsOffset, time);
  else jumpPose(rotations, hipsOffset, time);
}
