import type { GLTF } from '@gltf-transform/core';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import { HUMANOID_BONE_NAMES } from '../../humanoid/humanoid-bones.ts';

/** The extension's name, as `extensionsUsed` and `extensions` spell it (VRMC_vrm_animation-1.0). */
export const VRMA_EXTENSION = 'VRMC_vrm_animation';

/** JSON pointer of the extension object. */
const ROOT = `/extensions/${VRMA_EXTENSION}`;

/** VRMC_vrm_animation-1.0 reuses VRM 1.0's humanoid bone table. */
const BONE_NAMES: ReadonlySet<string> = new Set(HUMANOID_BONE_NAMES);

/** An expression a VRMA animates: its name and the glTF node whose x translation is its weight. */
export interface VrmaExpressionNode {
  /** The preset's name (`aa`, `blink`, …) or the custom expression's name. */
  readonly name: string;
  readonly preset: boolean;
  /** glTF node index. */
  readonly node: number;
}

/** What `VRMC_vrm_animation` says about a file's nodes, as glTF node indices (not yet skeleton joints). */
export interface VrmaNodes {
  /** Humanoid bone → glTF node; empty when the file has no `humanoid`. */
  readonly humanBones: ReadonlyMap<HumanoidBoneName, number>;
  /** Presets first, then custom expressions, each in file order. */
  readonly expressions: readonly VrmaExpressionNode[];
  /** The look-at node, or null. */
  readonly lookAtNode: number | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads and checks the `VRMC_vrm_animation` extension of a `.vrma` (VRMC_vrm_animation-1.0 README and schema):
 * `specVersion`, `humanoid.humanBones.<bone>.node`, `expressions.preset|custom.<name>.node`, `lookAt.node`.
 * - `specVersion` `'1.0'` or `'1.0-draft'`; absent is read as `'1.0'` with a warning (as three-vrm does); another
 *   value is an error (three-vrm ignores the extension then; Sinew refuses, since the file is only clips for an
 *   avatar through it).
 * - A bone name that is not a VRM 1.0 humanoid bone is dropped, and a node mapped to a second bone keeps its first,
 *   with one warning each for the file.
 * @param nodeCount the file's `nodes.length`
 * @param warnings receives the warnings, each starting with `fileName:`
 * @throws LoadError about `fileName` at the extension's JSON pointer: no extension (`UNDEFINED_PROPERTY`), an
 *   object or name of the wrong type (`TYPE_MISMATCH`), an unknown `specVersion` (`VALUE_NOT_IN_LIST`), a `node`
 *   that is not an integer ≥ 0 (`INVALID_INDEX`) or past the nodes (`UNRESOLVED_REFERENCE`)
 */
export function readVrmaExtension(fileName: string, json: GLTF.IGLTF, nodeCount: number, warnings: string[]): VrmaNodes {
  const fail = (where: string, code: 'UNDEFINED_PROPERTY' | 'TYPE_MISMATCH' | 'VALUE_NOT_IN_LIST' | 'INVALID_INDEX' | 'UNRESOLVED_REFERENCE', problem: string): never => {
    throw new LoadError(fileName, where, code, problem);
  };
  const extension = (json.extensions as Json | undefined)?.[VRMA_EXTENSION];
  if (extension === undefined) fail(ROOT, 'UNDEFINED_PROPERTY', `is missing: a .vrma is a glTF with the ${VRMA_EXTENSION} extension`);
  if (!isObject(extension)) return fail(ROOT, 'TYPE_MISMATCH', 'is not an object');

  const spec = extension.specVersion;
  if (spec === undefined) warnings.push(`${fileName}: ${VRMA_EXTENSION} has no specVersion; read as 1.0`);
  else if (spec !== '1.0' && spec !== '1.0-draft') fail(`${ROOT}/specVersion`, 'VALUE_NOT_IN_LIST', `is ${quoteValue(spec)}, expected "1.0" (or "1.0-draft")`);

  const nodeAt = (holder: unknown, where: string): number => {
    if (!isObject(holder)) return fail(where, 'TYPE_MISMATCH', 'is not an object');
    const node = holder.node;
    if (node === undefined) return fail(`${where}/node`, 'UNDEFINED_PROPERTY', 'is missing');
    if (typeof node !== 'number') return fail(`${where}/node`, 'TYPE_MISMATCH', `is ${quoteValue(node)}, not a node index`);
    if (!Number.isInteger(node) || node < 0) return fail(`${where}/node`, 'INVALID_INDEX', `is ${node}, not an integer ≥ 0`);
    if (node >= nodeCount) return fail(`${where}/node`, 'UNRESOLVED_REFERENCE', `is node ${node}, the file has ${nodeCount}`);
    return node;
  };
  const entries = (holder: unknown, where: string): [string, unknown][] => {
    if (holder === undefined) return [];
    if (!isObject(holder)) return fail(where, 'TYPE_MISMATCH', 'is not an object');
    return Object.entries(holder);
  };

  const humanBones = new Map<HumanoidBoneName, number>();
  if (extension.humanoid !== undefined) {
    if (!isObject(extension.humanoid)) fail(`${ROOT}/humanoid`, 'TYPE_MISMATCH', 'is not an object');
    const bones = (extension.humanoid as Json).humanBones;
    if (bones === undefined) fail(`${ROOT}/humanoid/humanBones`, 'UNDEFINED_PROPERTY', 'is missing');
    const unknown: string[] = [];
    const twice: string[] = [];
    const boneOfNode = new Map<number, string>();
    for (const [bone, value] of entries(bones, `${ROOT}/humanoid/humanBones`)) {
      const node = nodeAt(value, `${ROOT}/humanoid/humanBones/${escapePointer(bone)}`);
      if (!BONE_NAMES.has(bone)) unknown.push(bone);
      else if (boneOfNode.has(node)) twice.push(`${bone} (node ${node}, already ${boneOfNode.get(node)})`);
      else {
        boneOfNode.set(node, bone);
        humanBones.set(bone as HumanoidBoneName, node);
      }
    }
    if (unknown.length > 0) warnings.push(`${fileName}: ${unknown.length} humanoid bone names that VRM 1.0 does not have dropped: ${unknown.map(quoteValue).join(', ')}`);
    if (twice.length > 0) warnings.push(`${fileName}: ${twice.length} humanoid bones name a node another bone has and are dropped: ${twice.join(', ')}`);
  }

  const expressions: VrmaExpressionNode[] = [];
  if (extension.expressions !== undefined) {
    if (!isObject(extension.expressions)) fail(`${ROOT}/expressions`, 'TYPE_MISMATCH', 'is not an object');
    const kinds = extension.expressions as Json;
    for (const kind of ['preset', 'custom'] as const) {
      for (const [name, value] of entries(kinds[kind], `${ROOT}/expressions/${kind}`)) {
        expressions.push({ name, preset: kind === 'preset', node: nodeAt(value, `${ROOT}/expressions/${kind}/${escapePointer(name)}`) });
      }
    }
  }

  const lookAtNode = extension.lookAt === undefined ? null : nodeAt(extension.lookAt, `${ROOT}/lookAt`);
  return { humanBones, expressions, lookAtNode };
}

/** A JSON pointer token (RFC 6901 §4): `~` as `~0`, `/` as `~1`. */
function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
