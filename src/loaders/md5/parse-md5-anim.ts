import { toLoadError, quoteValue } from '../load-error.ts';
import { Md5TokenReader, describeToken } from './md5-tokenizer.ts';
import { md5QuaternionW } from './md5-quaternion.ts';
import { readMd5JointHeader } from './md5-joint-header.ts';
import { MAX_SKELETON_JOINTS } from '../../skeleton/skeleton.ts';

/**
 * Bits of an MD5 hierarchy entry's `flags`: which of the joint's six components each frame overrides, read in
 * this order from the frame's numbers starting at `startIndex`.
 */
export const MD5_ANIM_FLAGS = { Tx: 1, Ty: 2, Tz: 4, Qx: 8, Qy: 16, Qz: 32 } as const;

/** One joint of an `.md5anim` hierarchy. */
export interface Md5AnimJoint {
  readonly name: string;
  /** Parent joint index, −1 for a root. */
  readonly parent: number;
  /** Bit set of {@link MD5_ANIM_FLAGS}: 0…63. */
  readonly flags: number;
  /** Index of the first animated component of this joint in each frame. */
  readonly startIndex: number;
  /** 1-based line of the entry. */
  readonly line: number;
}

/**
 * A parsed `.md5anim` (MD5Version 10). Joint values (baseframe and frames) are parent-relative, except for root
 * joints, whose values are in model space.
 */
export interface Md5Anim {
  readonly fileName: string;
  readonly commandline: string;
  readonly frameCount: number;
  /** Frames per second (> 0). */
  readonly frameRate: number;
  /** Numbers per frame. */
  readonly numAnimatedComponents: number;
  readonly hierarchy: readonly Md5AnimJoint[];
  /** `Float64Array(6·frameCount)`: per frame, min (x, y, z) then max (x, y, z) of the model, model space. */
  readonly bounds: Float64Array;
  /** `Float64Array(3·jointCount)`: baseframe translation of each joint. */
  readonly basePositions: Float64Array;
  /** `Float64Array(4·jointCount)`: baseframe rotation (x, y, z, w) of each joint, w rebuilt ({@link md5QuaternionW}). */
  readonly baseOrientations: Float64Array;
  /** `Float64Array(frameCount·numAnimatedComponents)`: the frames' numbers, frame f at `f·numAnimatedComponents`. */
  readonly frameComponents: Float64Array;
}

function popcount6(flags: number): number {
  let n = 0;
  for (let b = 0; b < 6; b++) if (flags & (1 << b)) n++;
  return n;
}

/**
 * Parses the text of an `.md5anim` file (MD5Version 10) and validates it: counts matched by entries (joints,
 * bounds, baseframe, frames, each frame's numbers), parents in range and free of cycles, flags in
 * 0…63, each joint's component range inside numAnimatedComponents, frameRate > 0, every frame given once.
 *
 * @param fileName used in error messages, e.g. `Bob.md5anim`
 * @throws LoadError `file:line: problem`
 */
export function parseMd5Anim(fileName: string, text: string): Md5Anim {
  try {
    return parse(fileName, text);
  } catch (error) {
    // A failure the parser did not foresee (a JS runtime error) still names the file.
    throw toLoadError(fileName, error);
  }
}

/**
 * Frame f plays at `f / frameRate` seconds, stored as float32 key times: they must all be finite and strictly
 * increasing there, or a clip would jump: a rate of 10⁻⁴⁰ overflows to ∞, and a large frame count at a high rate
 * rounds neighbouring frames onto one time.
 * @throws LoadError `MD5_VALUE_OUT_OF_RANGE` at the frameRate line
 */
function checkKeyTimes(r: Md5TokenReader, frameRate: number, frameCount: number, line: number): void {
  let previous = -Infinity;
  for (let f = 0; f < frameCount; f++) {
    const time = Math.fround(f / frameRate);
    if (!Number.isFinite(time) || !(time > previous)) {
      throw r.error(`frameRate ${frameRate} gives frame ${f} the key time ${time} s (float32), not after frame ${f - 1}'s: frame times must be finite and increasing`, line, 'MD5_VALUE_OUT_OF_RANGE');
    }
    previous = time;
  }
}

function parse(fileName: string, text: string): Md5Anim {
  const r = new Md5TokenReader(fileName, text);
  r.readVersionHeader();

  let commandline = '';
  let frameCount = -1, jointCount = -1, frameRate = -1, componentCount = -1;
  let frameRateLine = 0;
  let hierarchy: Md5AnimJoint[] | null = null;
  let bounds: Float64Array | null = null;
  let basePositions: Float64Array | null = null;
  let baseOrientations: Float64Array | null = null;
  let frameComponents: Float64Array | null = null;
  let frameSeen: Uint8Array | null = null;
  let framesRead = 0;

  const needHeader = (line: number, block: string): void => {
    if (frameCount < 0 || jointCount < 0 || componentCount < 0) {
      throw r.error(`'${block}' before numFrames, numJoints and numAnimatedComponents`, line);
    }
  };

  while (!r.atEnd()) {
    const key = r.readWord('a keyword');
    switch (key.text) {
      case 'commandline':
        commandline = r.readString('commandline');
        break;
      case 'numFrames':
        if (frameCount >= 0) throw r.error('numFrames given twice', key.line);
        frameCount = r.readCount('numFrames', 12, 1); // bounds ( x y z ) ( x y z ) and frame i { }
        break;
      case 'numJoints':
        if (jointCount >= 0) throw r.error('numJoints given twice', key.line);
        jointCount = r.readInt('numJoints', 0, MAX_SKELETON_JOINTS);
        break;
      case 'frameRate': {
        if (frameRate >= 0) throw r.error('frameRate given twice', key.line);
        const line = r.line();
        frameRateLine = line;
        frameRate = r.readFloat('frameRate');
        if (!(frameRate > 0)) throw r.error(`frameRate must be > 0, found ${frameRate}`, line, 'MD5_VALUE_OUT_OF_RANGE');
        break;
      }
      case 'numAnimatedComponents':
        if (componentCount >= 0) throw r.error('numAnimatedComponents given twice', key.line);
        componentCount = r.readCount('numAnimatedComponents', frameCount); // that many numbers in every frame
        break;
      case 'hierarchy':
        needHeader(key.line, 'hierarchy');
        if (hierarchy) throw r.error("second 'hierarchy' block", key.line);
        hierarchy = parseHierarchy(r, jointCount, componentCount);
        break;
      case 'bounds': {
        needHeader(key.line, 'bounds');
        if (bounds) throw r.error("second 'bounds' block", key.line);
        const b = new Float64Array(6 * frameCount);
        r.expectPunct('{');
        let n = 0;
        while (!r.acceptPunct('}')) {
          if (n >= frameCount) throw r.error(`bounds entry ${n} beyond numFrames ${frameCount}`, undefined, 'MD5_INDEX_OUT_OF_RANGE');
          r.readVector(b, 6 * n, 3, `bounds min of frame ${n}`);
          r.readVector(b, 6 * n + 3, 3, `bounds max of frame ${n}`);
          n++;
        }
        if (n !== frameCount) throw r.error(`found ${n} bounds, numFrames is ${frameCount}`, r.previousLine(), 'MD5_COUNT_MISMATCH');
        bounds = b;
        break;
      }
      case 'baseframe': {
        needHeader(key.line, 'baseframe');
        if (basePositions) throw r.error("second 'baseframe' block", key.line);
        const p = new Float64Array(3 * jointCount);
        const q = new Float64Array(4 * jointCount);
        r.expectPunct('{');
        let n = 0;
        while (!r.acceptPunct('}')) {
          if (n >= jointCount) throw r.error(`baseframe entry ${n} beyond numJoints ${jointCount}`, undefined, 'MD5_INDEX_OUT_OF_RANGE');
          r.readVector(p, 3 * n, 3, `baseframe position of joint ${n}`);
          r.readVector(q, 4 * n, 3, `baseframe orientation of joint ${n}`);
          q[4 * n + 3] = md5QuaternionW(q[4 * n], q[4 * n + 1], q[4 * n + 2]);
          n++;
        }
        if (n !== jointCount) throw r.error(`found ${n} baseframe joints, numJoints is ${jointCount}`, r.previousLine(), 'MD5_COUNT_MISMATCH');
        basePositions = p;
        baseOrientations = q;
        break;
      }
      case 'frame': {
        needHeader(key.line, 'frame');
        if (!frameComponents || !frameSeen) {
          // Every frame's numbers follow this first 'frame' keyword, whichever block comes first.
          r.requireTokens(`numFrames ${frameCount} × numAnimatedComponents ${componentCount}`, frameCount * componentCount, key.line);
          frameComponents = new Float64Array(frameCount * componentCount);
          frameSeen = new Uint8Array(frameCount);
        }
        const { value: f, line } = r.readIndex('frame index');
        if (f < 0 || f >= frameCount) throw r.error(`frame index ${f} out of range: numFrames is ${frameCount}`, line, 'MD5_INDEX_OUT_OF_RANGE');
        if (frameSeen[f]) throw r.error(`frame ${f} given twice`, line);
        frameSeen[f] = 1;
        r.expectPunct('{');
        let n = 0;
        while (!r.acceptPunct('}')) {
          if (n >= componentCount) {
            throw r.error(`frame ${f} has more than numAnimatedComponents ${componentCount} numbers`, undefined, 'MD5_COUNT_MISMATCH');
          }
          frameComponents[f * componentCount + n] = r.readFloat(`component ${n} of frame ${f}`);
          n++;
        }
        if (n !== componentCount) {
          throw r.error(`frame ${f} has ${n} numbers, numAnimatedComponents is ${componentCount}`, r.previousLine(), 'MD5_COUNT_MISMATCH');
        }
        framesRead++;
        break;
      }
      default:
        throw r.error(`unknown keyword ${describeToken(key)}`, key.line);
    }
  }
  if (frameCount < 0) throw r.error('numFrames missing');
  if (jointCount < 0) throw r.error('numJoints missing');
  if (frameRate < 0) throw r.error('frameRate missing');
  checkKeyTimes(r, frameRate, frameCount, frameRateLine);
  if (componentCount < 0) throw r.error('numAnimatedComponents missing');
  if (!hierarchy) throw r.error("'hierarchy' block missing");
  if (!bounds) throw r.error("'bounds' block missing");
  if (!basePositions || !baseOrientations) throw r.error("'baseframe' block missing");
  if (framesRead !== frameCount || !frameComponents) {
    throw r.error(`found ${framesRead} frames, numFrames is ${frameCount}`, undefined, 'MD5_COUNT_MISMATCH');
  }
  return {
    fileName, commandline, frameCount, frameRate, numAnimatedComponents: componentCount, hierarchy, bounds,
    basePositions, baseOrientations, frameComponents,
  };
}

function parseHierarchy(r: Md5TokenReader, jointCount: number, componentCount: number): Md5AnimJoint[] {
  r.expectPunct('{');
  const joints: Md5AnimJoint[] = [];
  while (!r.acceptPunct('}')) {
    const i = joints.length;
    const { name, parent, line } = readMd5JointHeader(r, i, jointCount);
    const flags = r.readInt(`flags of joint ${i}`, 0, 63);
    const startRef = r.readIndex(`start index of joint ${i}`);
    const startIndex = startRef.value;
    const used = popcount6(flags);
    if (startIndex < 0 || startIndex + used > componentCount) {
      throw r.error(`joint ${i} ${quoteValue(name)} reads components ${startIndex}…${startIndex + used - 1} of numAnimatedComponents ${componentCount}`, startRef.line, 'MD5_INDEX_OUT_OF_RANGE');
    }
    joints.push({ name, parent, flags, startIndex, line });
  }
  if (joints.length !== jointCount) throw r.error(`found ${joints.length} hierarchy joints, numJoints is ${jointCount}`, r.previousLine(), 'MD5_COUNT_MISMATCH');
  for (let i = 0; i < jointCount; i++) {
    let p = joints[i].parent;
    for (let steps = 0; p >= 0; steps++) {
      if (steps > jointCount) throw r.error(`joint ${i} ${quoteValue(joints[i].name)} is its own ancestor (parent cycle)`, joints[i].line, 'MD5_JOINT_CYCLE');
      p = joints[p].parent;
    }
  }
  return joints;
}
