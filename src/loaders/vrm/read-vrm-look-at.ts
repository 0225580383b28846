import type { FirstPerson as Vrm0FirstPerson, FirstPersonDegreeMap } from '@pixiv/types-vrm-0.0';
import type { LookAt as Vrm1LookAt } from '@pixiv/types-vrmc-vrm-1.0';
import type { LookAtAsset, LookAtRangeMap } from '../../asset/avatar-asset.ts';
import { DroppedPart, dropped, isFiniteTuple, isJsonObject, type VrmReading } from './vrm-reading.ts';

/** Where the eyes look from when the file does not say: 6 cm above the head bone (VRMC_vrm-1.0 `lookAt.md`, three-vrm's default). */
const DEFAULT_OFFSET: readonly [number, number, number] = [0, 0.06, 0];

/** The range maps' keys, in {@link LookAtAsset}'s order (VRM 1.0) and VRM 0.x's `firstPerson` names for them. */
const RANGE_MAPS = [
  ['rangeMapHorizontalInner', 'lookAtHorizontalInner'],
  ['rangeMapHorizontalOuter', 'lookAtHorizontalOuter'],
  ['rangeMapVerticalDown', 'lookAtVerticalDown'],
  ['rangeMapVerticalUp', 'lookAtVerticalUp'],
] as const;

/**
 * VRM 1.0 `VRMC_vrm.lookAt` → {@link LookAtAsset} (VRMC_vrm-1.0 `lookAt.md`): `type` default `bone`,
 * `offsetFromHeadBone` default (0, 0.06, 0) metres, each range map's `inputMaxValue` default 90 degrees and
 * `outputScale` default 10 degrees (`bone`) or 1 (`expression`), as the schema and three-vrm give them.
 *
 * @returns null when the file has no lookAt, or when it is malformed (an unknown type, an offset that is not three
 *   finite numbers, an inputMaxValue that is not a positive number, an outputScale that is not finite): then with
 *   one warning naming the JSON pointer. three-vrm raises a tiny inputMaxValue to its minimum instead; Sinew drops
 *   the look-at, since the map then divides by (nearly) zero.
 */
export function readVrm1LookAt(reading: VrmReading, lookAt: unknown, where: string): LookAtAsset | null {
  if (lookAt === undefined) return null;
  return droppingMalformed(reading, () => {
    if (!isJsonObject(lookAt)) throw dropped(where, lookAt, 'an object');
    const l = lookAt as Partial<Vrm1LookAt>;
    const type = l.type ?? 'bone';
    if (type !== 'bone' && type !== 'expression') throw dropped(`${where}/type`, type, 'bone or expression');
    const offset = l.offsetFromHeadBone ?? DEFAULT_OFFSET;
    if (!isFiniteTuple(offset, 3)) throw dropped(`${where}/offsetFromHeadBone`, offset, 'three finite numbers');
    const defaultScale = type === 'expression' ? 1 : 10;
    const maps = RANGE_MAPS.map(([key]) => rangeMap(lookAt[key], `${where}/${key}`, 'inputMaxValue', 'outputScale', defaultScale));
    return {
      type, offsetFromHeadBone: [offset[0], offset[1], offset[2]],
      rangeMapHorizontalInner: maps[0], rangeMapHorizontalOuter: maps[1], rangeMapVerticalDown: maps[2], rangeMapVerticalUp: maps[3],
    };
  });
}

/**
 * VRM 0.x look-at, from `VRM.firstPerson` (three-vrm's 0.x look-at loader): `lookAtTypeName` `BlendShape` →
 * `expression`, anything else `bone`; each degree map's `xRange` → `inputMaxValue` (default 90) and `yRange` →
 * `outputScale` (default 10, or 1 for `BlendShape`); a `curve` other than the linear `[0,0,0,1,1,1,1,0]` is read
 * as linear with one warning (three-vrm does the same). `firstPersonBoneOffset` (x, y, z) → `offsetFromHeadBone`
 * (x, y, −z), default (0, 0.06, 0): 0.x stores it in Unity's left-handed axes. A 0.x head faces −Z in its own
 * space, and the half turn at load (turnVrm0ToFaceZ) turns the whole model, not the head's frame: so
 * `faceFront` is (0, 0, −1), three-vrm's `faceFront` for 0.x.
 *
 * @returns null when `firstPerson` is absent, or malformed (then with one warning naming the JSON pointer)
 */
export function readVrm0LookAt(reading: VrmReading, firstPerson: unknown, where: string): LookAtAsset | null {
  if (firstPerson === undefined) return null;
  return droppingMalformed(reading, () => {
    if (!isJsonObject(firstPerson)) throw dropped(where, firstPerson, 'an object');
    const f = firstPerson as Vrm0FirstPerson;
    const type = f.lookAtTypeName === 'BlendShape' ? 'expression' : 'bone';
    let offset: [number, number, number] = [...DEFAULT_OFFSET];
    if (f.firstPersonBoneOffset !== undefined) {
      const o: unknown = f.firstPersonBoneOffset;
      const part = (key: 'x' | 'y' | 'z', fallback: number) => {
        const v = isJsonObject(o) ? o[key] ?? fallback : undefined;
        if (typeof v !== 'number' || !Number.isFinite(v)) throw dropped(`${where}/firstPersonBoneOffset${isJsonObject(o) ? `/${key}` : ''}`, isJsonObject(o) ? v : o, 'a finite number');
        return v;
      };
      offset = [part('x', 0), part('y', 0.06), -part('z', 0)];
    }
    const defaultScale = type === 'expression' ? 1 : 10;
    const curved: string[] = [];
    const maps = RANGE_MAPS.map(([, key]) => {
      const map: FirstPersonDegreeMap | undefined = f[key];
      if (isJsonObject(map) && map.curve !== undefined && JSON.stringify(map.curve) !== '[0,0,0,1,1,1,1,0]') curved.push(`${where}/${key}/curve`);
      return rangeMap(map, `${where}/${key}`, 'xRange', 'yRange', defaultScale);
    });
    for (const place of curved) reading.warnings.push(`${reading.fileName}: ${place} is not the linear curve; read as linear`);
    return {
      type, offsetFromHeadBone: offset,
      rangeMapHorizontalInner: maps[0], rangeMapHorizontalOuter: maps[1], rangeMapVerticalDown: maps[2], rangeMapVerticalUp: maps[3],
      faceFront: [0, 0, -1],
    };
  });
}

/** A range map from its input and output keys (1.0: inputMaxValue / outputScale; 0.x: xRange / yRange). */
function rangeMap(value: unknown, where: string, inputKey: string, outputKey: string, defaultScale: number): LookAtRangeMap {
  if (value === undefined) return { inputMaxValue: 90, outputScale: defaultScale };
  if (!isJsonObject(value)) throw dropped(where, value, 'an object');
  const inputMaxValue = value[inputKey] ?? 90;
  const outputScale = value[outputKey] ?? defaultScale;
  if (typeof inputMaxValue !== 'number' || !(inputMaxValue > 0) || !Number.isFinite(inputMaxValue)) throw dropped(`${where}/${inputKey}`, inputMaxValue, 'a positive number of degrees');
  if (typeof outputScale !== 'number' || !Number.isFinite(outputScale)) throw dropped(`${where}/${outputKey}`, outputScale, 'a finite number');
  return { inputMaxValue, outputScale };
}

/** `read()`, or null with one warning when it finds the look-at malformed. */
function droppingMalformed(reading: VrmReading, read: () => LookAtAsset): LookAtAsset | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof DroppedPart)) throw error;
    reading.warnings.push(`${reading.fileName}: ${error.where} ${error.problem}; the look-at is dropped`);
    return null;
  }
}
