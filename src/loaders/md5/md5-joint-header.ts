import { quoteValue } from '../load-error.ts';
import type { Md5TokenReader } from './md5-tokenizer.ts';

/** The start of a joint line, shared by `.md5mesh` joints and `.md5anim` hierarchy entries. */
export interface Md5JointHeader {
  readonly name: string;
  /** Parent joint index, −1 for a root. */
  readonly parent: number;
  /** 1-based line of the joint's name. */
  readonly line: number;
}

/**
 * Reads `"name" parent` for joint `index` of `jointCount` and checks the parent index.
 * @throws LoadError (`file:line: …`) for a joint beyond the declared count, a parent outside [−1, jointCount)
 *   or a joint that is its own parent
 */
export function readMd5JointHeader(r: Md5TokenReader, index: number, jointCount: number): Md5JointHeader {
  const line = r.line();
  const name = r.readString('joint name');
  if (index >= jointCount) throw r.error(`joint ${index} ${quoteValue(name)} beyond numJoints ${jointCount}`, line, 'MD5_INDEX_OUT_OF_RANGE');
  const parentRef = r.readIndex(`parent of joint ${index}`);
  const parent = parentRef.value;
  if (parent < -1 || parent >= jointCount) {
    throw r.error(`joint ${index} ${quoteValue(name)} names parent ${parent} of ${jointCount}`, parentRef.line, 'MD5_INDEX_OUT_OF_RANGE');
  }
  if (parent === index) throw r.error(`joint ${index} ${quoteValue(name)} is its own parent`, parentRef.line, 'MD5_JOINT_CYCLE');
  return { name, parent, line };
}
