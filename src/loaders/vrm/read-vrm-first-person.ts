import type { FirstPersonAsset, FirstPersonType } from '../../asset/avatar-asset.ts';
import { quoteValue } from '../load-error.ts';
import { isIndex, isJsonObject, type VrmReading } from './vrm-reading.ts';

const TYPES: readonly string[] = ['auto', 'both', 'thirdPersonOnly', 'firstPersonOnly'];

/** VRM 0.x `firstPersonFlag` → 1.0 type, as three-vrm's 0.x first-person loader: any other flag is `auto`. */
const VRM0_FLAGS: Readonly<Record<string, FirstPersonType>> = {
  Auto: 'auto', Both: 'both', ThirdPersonOnly: 'thirdPersonOnly', FirstPersonOnly: 'firstPersonOnly',
};

/**
 * VRM 1.0 `VRMC_vrm.firstPerson.meshAnnotations` (`{ node, type }`) → annotations by skeleton joint
 * (VRMC_vrm-1.0 `firstPerson.md`). An annotation whose node has no mesh, or whose type is unknown, is ignored with
 * one warning naming its JSON pointer; meshes not annotated are `auto`.
 */
export function readVrm1FirstPerson(reading: VrmReading, firstPerson: unknown, where: string): FirstPersonAsset {
  const annotations = isJsonObject(firstPerson) ? firstPerson.meshAnnotations : undefined;
  if (!Array.isArray(annotations)) {
    if (firstPerson !== undefined && annotations !== undefined) warn(reading, `${where}/meshAnnotations`, annotations, 'an array');
    else if (firstPerson !== undefined && !isJsonObject(firstPerson)) warn(reading, where, firstPerson, 'an object');
    return { meshAnnotations: [] };
  }
  const meshAnnotations: { node: number; type: FirstPersonType }[] = [];
  annotations.forEach((annotation: unknown, i) => {
    const at = `${where}/meshAnnotations/${i}`;
    const node = isJsonObject(annotation) ? annotation.node : undefined;
    const type = isJsonObject(annotation) ? annotation.type : undefined;
    if (!isIndex(node, reading.jointOfNode.length) || !reading.meshInstances.some((m) => m.sourceNode === node)) return warn(reading, `${at}/node`, node, 'a node with a mesh');
    if (typeof type !== 'string' || !TYPES.includes(type)) return warn(reading, `${at}/type`, type, TYPES.join(', '));
    meshAnnotations.push({ node: reading.jointOfNode[node], type: type as FirstPersonType });
  });
  return { meshAnnotations };
}

/**
 * VRM 0.x `VRM.firstPerson.meshAnnotations` (`{ mesh, firstPersonFlag }`) → annotations by skeleton joint: a 0.x
 * annotation names a mesh, so every node that carries it gets the type (`Auto`, `Both`, `ThirdPersonOnly`,
 * `FirstPersonOnly`; any other flag `auto`, as three-vrm reads it). An annotation naming no mesh is ignored with
 * one warning.
 */
export function readVrm0FirstPerson(reading: VrmReading, firstPerson: unknown, where: string): FirstPersonAsset {
  const annotations = isJsonObject(firstPerson) ? firstPerson.meshAnnotations : undefined;
  if (!Array.isArray(annotations)) return { meshAnnotations: [] };
  const meshAnnotations: { node: number; type: FirstPersonType }[] = [];
  const meshCount = reading.json.meshes?.length ?? 0;
  annotations.forEach((annotation: unknown, i) => {
    const at = `${where}/meshAnnotations/${i}`;
    const mesh = isJsonObject(annotation) ? annotation.mesh : undefined;
    if (!isIndex(mesh, meshCount)) return warn(reading, `${at}/mesh`, mesh, `a mesh index (the file has ${meshCount})`);
    const flag = isJsonObject(annotation) ? annotation.firstPersonFlag : undefined;
    const type = typeof flag === 'string' && Object.hasOwn(VRM0_FLAGS, flag) ? VRM0_FLAGS[flag] : 'auto';
    for (const instance of reading.meshInstances) if (instance.mesh === mesh) meshAnnotations.push({ node: instance.node, type });
  });
  return { meshAnnotations };
}

function warn(reading: VrmReading, where: string, value: unknown, expected: string): void {
  reading.warnings.push(`${reading.fileName}: ${where} is ${quoteValue(value)}, not ${expected}; the first-person annotation is ignored`);
}
