import type { AvatarAsset } from '../../asset/avatar-asset.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import { readVrm0Expressions, readVrm1Expressions } from './read-vrm-expressions.ts';
import { readVrm0FirstPerson, readVrm1FirstPerson } from './read-vrm-first-person.ts';
import { readVrm0Humanoid, readVrm1Humanoid } from './read-vrm-humanoid.ts';
import { readVrm0LookAt, readVrm1LookAt } from './read-vrm-look-at.ts';
import { readVrm0Meta, readVrm1Meta } from './read-vrm-meta.ts';
import { isJsonObject, type VrmReading } from './vrm-reading.ts';

/** The `VRMC_vrm.specVersion` values read as VRM 1.0 (three-vrm reads the same two). */
const VRM1_SPEC_VERSIONS: readonly string[] = ['1.0', '1.0-beta'];

/**
 * The avatar of a VRM file, normalised to VRM 1.0 semantics (avatar-asset.ts), or null for a glTF that is not
 * one. VRM 1.0 is the top-level `extensions.VRMC_vrm` (VRMC_vrm-1.0); VRM 0.x the top-level `extensions.VRM`
 * (VRM 0.0 specification), read only when the file has no `VRMC_vrm`, as three-vrm prefers 1.0. A `VRMC_vrm`
 * whose `specVersion` is neither `1.0` nor `1.0-beta` is not read (one warning), as three-vrm skips it.
 *
 * The parts: meta (read-vrm-meta.ts), humanoid (read-vrm-humanoid.ts), expressions (read-vrm-expressions.ts),
 * look-at (read-vrm-look-at.ts; 0.x from `firstPerson`), first person (read-vrm-first-person.ts). A VRM 0.x model
 * also needs turning to face +Z (turnVrm0ToFaceZ), which the glTF loader does on seeing `specVersion` `0.x`.
 *
 * @throws LoadError `HUMANOID_INVALID` for a broken humanoid (missing, a required bone missing, a node for two
 *   bones, a node past the model's) naming the bone and the JSON pointer; `TYPE_MISMATCH` when the extension
 *   is not an object. A malformed expression or look-at is dropped with one warning each; the avatar still loads.
 */
export function readVrmAvatar(reading: VrmReading): AvatarAsset | null {
  const extensions: unknown = reading.json.extensions;
  if (!isJsonObject(extensions)) return null;
  const vrm1 = extensions.VRMC_vrm;
  if (vrm1 !== undefined) {
    const where = '/extensions/VRMC_vrm';
    if (!isJsonObject(vrm1)) throw new LoadError(reading.fileName, where, 'TYPE_MISMATCH', `is ${quoteValue(vrm1)}, not an object`);
    if (typeof vrm1.specVersion !== 'string' || !VRM1_SPEC_VERSIONS.includes(vrm1.specVersion)) {
      reading.warnings.push(`${reading.fileName}: ${where}/specVersion is ${quoteValue(vrm1.specVersion)}, not 1.0; the avatar is not read`);
      return null;
    }
    return {
      specVersion: '1.0',
      meta: readVrm1Meta(reading, vrm1.meta, `${where}/meta`),
      humanoid: readVrm1Humanoid(reading, vrm1.humanoid, `${where}/humanoid`),
      expressions: readVrm1Expressions(reading, vrm1.expressions, `${where}/expressions`),
      lookAt: readVrm1LookAt(reading, vrm1.lookAt, `${where}/lookAt`),
      firstPerson: readVrm1FirstPerson(reading, vrm1.firstPerson, `${where}/firstPerson`),
    };
  }
  const vrm0 = extensions.VRM;
  if (vrm0 === undefined) return null;
  const where = '/extensions/VRM';
  if (!isJsonObject(vrm0)) throw new LoadError(reading.fileName, where, 'TYPE_MISMATCH', `is ${quoteValue(vrm0)}, not an object`);
  return {
    specVersion: '0.x',
    meta: readVrm0Meta(reading, vrm0.meta, `${where}/meta`),
    humanoid: readVrm0Humanoid(reading, vrm0.humanoid, `${where}/humanoid`),
    expressions: readVrm0Expressions(reading, vrm0.blendShapeMaster, `${where}/blendShapeMaster`),
    lookAt: readVrm0LookAt(reading, vrm0.firstPerson, `${where}/firstPerson`),
    firstPerson: readVrm0FirstPerson(reading, vrm0.firstPerson, `${where}/firstPerson`),
  };
}
