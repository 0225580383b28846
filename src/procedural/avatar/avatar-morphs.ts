import { AVATAR_BONES, avatarBoneIndex } from './avatar-bones.ts';

/** Which part of the face mesh a vertex belongs to: the morph fields treat the head, eyes, pupils and cheeks apart. */
export type FacePart = 'head' | 'eyeball' | 'pupil' | 'cheek' | 'mouth';

/**
 * The face mesh's morph targets, in order (their index is the glTF morph target index). One per expression that
 * moves vertices (the VRM 1.0 presets but `neutral`, plus the custom `cheekPuff`); `blink` is its own shape, the sum
 * of `blinkLeft` and `blinkRight`.
 */
export const FACE_MORPH_TARGETS = [
  'blink', 'blinkLeft', 'blinkRight', 'aa', 'ih', 'ou', 'ee', 'oh', 'happy', 'angry', 'sad', 'relaxed', 'surprised',
  'lookUp', 'lookDown', 'lookLeft', 'lookRight', 'cheekPuff',
] as const;

/** A name of {@link FACE_MORPH_TARGETS}. */
export type FaceMorphTarget = (typeof FACE_MORPH_TARGETS)[number];

const LEFT_EYE = AVATAR_BONES[avatarBoneIndex('leftEye')].position;
const RIGHT_EYE = AVATAR_BONES[avatarBoneIndex('rightEye')].position;
/** The mouth's centre on the head's surface, metres (the face has no hole; the lips are the surface near here). */
export const MOUTH: readonly [number, number, number] = [0, 1.475, 0.079];
/** The cheeks' centres (left, right), metres. */
export const CHEEKS: readonly (readonly [number, number, number])[] = [[0.05, 1.5, 0.072], [-0.05, 1.5, 0.072]];

/** exp(−|p − c|² / r²): a smooth bump of radius r (metres) round c. */
function bump(p: ArrayLike<number>, c: readonly number[], r: number): number {
  const dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
  return Math.exp(-(dx * dx + dy * dy + dz * dz) / (r * r));
}

function add(out: Float64Array, x: number, y: number, z: number, w: number): void {
  out[0] += x * w; out[1] += y * w; out[2] += z * w;
}

/** An upper eyelid closing over one eye: head skin above it moves down and forward, the eye flattens to a slit. */
function closeEye(out: Float64Array, p: ArrayLike<number>, part: FacePart, eye: readonly number[], amount: number): void {
  if (part === 'head') {
    add(out, 0, -0.016, 0.008, amount * bump(p, [eye[0], eye[1] + 0.014, eye[2] + 0.01], 0.016));
  } else if ((part === 'eyeball' || part === 'pupil') && Math.sign(p[0]) === Math.sign(eye[0])) {
    add(out, 0, -(p[1] - eye[1]) * 0.9, 0, amount);
  }
}

/**
 * Lips: `open` moves the lower lip down, `wide` the corners outward (negative: together), `forward` pushes them out;
 * the dark mouth patch stretches with them.
 */
function mouth(out: Float64Array, p: ArrayLike<number>, part: FacePart, open: number, wide: number, forward: number): void {
  if (part === 'mouth') {
    add(out, 0.6 * wide * p[0], 2.5 * open * (p[1] - MOUTH[1]) - 0.008 * open, 0.004 * forward, 1);
    return;
  }
  if (part !== 'head') return;
  const w = bump(p, MOUTH, 0.028);
  const below = p[1] < MOUTH[1] ? 1 : 0.25;
  add(out, Math.sign(p[0]) * 0.012 * wide, -0.018 * open * below, 0.01 * forward, w);
}

/** Mouth corners up (positive) or down. */
function corners(out: Float64Array, p: ArrayLike<number>, part: FacePart, lift: number): void {
  if (part === 'mouth') {
    add(out, 0, 0.008 * lift * Math.min(1, (p[0] / 0.02) ** 2), 0, 1);
    return;
  }
  if (part !== 'head') return;
  for (const s of [1, -1]) add(out, 0, 0.01 * lift, 0, bump(p, [s * 0.028, MOUTH[1], MOUTH[2] - 0.006], 0.016));
}

/** Brows: `raise` lifts them (negative lowers), `inner` lifts the inner ends only (negative: frown). */
function brows(out: Float64Array, p: ArrayLike<number>, part: FacePart, raise: number, inner: number): void {
  if (part !== 'head') return;
  for (const s of [1, -1]) {
    add(out, 0, 0.01 * raise, 0, bump(p, [s * 0.035, 1.565, 0.082], 0.022));
    add(out, 0, 0.01 * inner, 0.003 * Math.abs(inner), bump(p, [s * 0.016, 1.562, 0.088], 0.014));
  }
}

/** Pupils slide over the eyeball: x, y in metres (+X the avatar's left, +Y up). */
function pupils(out: Float64Array, part: FacePart, x: number, y: number): void {
  if (part === 'pupil') add(out, x, y, 0, 1);
}

/**
 * The displacement of a face vertex under a morph target at weight 1, metres, facing +Z (VRM 1.0), written to
 * `out` (`Float64Array(3)`, overwritten). The shapes are made up to be plainly visible, not anatomical.
 * @param p the vertex's bind-pose position, metres
 */
export function faceMorphDelta(out: Float64Array, target: FaceMorphTarget, p: ArrayLike<number>, part: FacePart): Float64Array {
  out.fill(0);
  switch (target) {
    case 'blink': closeEye(out, p, part, LEFT_EYE, 1); closeEye(out, p, part, RIGHT_EYE, 1); break;
    case 'blinkLeft': closeEye(out, p, part, LEFT_EYE, 1); break;
    case 'blinkRight': closeEye(out, p, part, RIGHT_EYE, 1); break;
    case 'aa': mouth(out, p, part, 1, 0, 0); break;
    case 'ih': mouth(out, p, part, 0.3, 0.8, 0); break;
    case 'ou': mouth(out, p, part, 0.3, -0.8, 1); break;
    case 'ee': mouth(out, p, part, 0.4, 1, 0); break;
    case 'oh': mouth(out, p, part, 0.8, -0.5, 0.6); break;
    case 'happy': corners(out, p, part, 1); closeEye(out, p, part, LEFT_EYE, 0.3); closeEye(out, p, part, RIGHT_EYE, 0.3); break;
    case 'angry': brows(out, p, part, -0.4, -1); corners(out, p, part, -0.5); break;
    case 'sad': brows(out, p, part, 0, 1); corners(out, p, part, -1); break;
    case 'relaxed': corners(out, p, part, 0.5); closeEye(out, p, part, LEFT_EYE, 0.5); closeEye(out, p, part, RIGHT_EYE, 0.5); break;
    case 'surprised': brows(out, p, part, 1.2, 0); mouth(out, p, part, 0.7, -0.3, 0); break;
    case 'lookUp': pupils(out, part, 0, 0.006); break;
    case 'lookDown': pupils(out, part, 0, -0.006); break;
    case 'lookLeft': pupils(out, part, 0.007, 0); break;
    case 'lookRight': pupils(out, part, -0.007, 0); break;
    case 'cheekPuff':
      if (part === 'head' || part === 'cheek') {
        for (const c of CHEEKS) add(out, Math.sign(c[0]) * 0.01, 0, 0.006, bump(p, c, 0.025));
      }
      break;
  }
  return out;
}
