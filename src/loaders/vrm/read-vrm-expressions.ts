import type { BlendShapeGroup } from '@pixiv/types-vrm-0.0';
import type { Expression } from '@pixiv/types-vrmc-vrm-1.0';
import type {
  ExpressionAsset, ExpressionColorBind, ExpressionMorphBind, ExpressionOverride, ExpressionPreset,
  ExpressionTextureTransformBind, MaterialColorTarget,
} from '../../asset/avatar-asset.ts';
import { quoteValue } from '../load-error.ts';
import { DroppedPart, dropped, isFiniteTuple, isIndex, isJsonObject, pointerToken, type VrmReading } from './vrm-reading.ts';

/** The VRM 1.0 expression presets (VRMC_vrm-1.0 `expressions.md` "Preset Expressions"). */
export const EXPRESSION_PRESETS: readonly ExpressionPreset[] = [
  'happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh',
  'blink', 'blinkLeft', 'blinkRight', 'lookUp', 'lookDown', 'lookLeft', 'lookRight', 'neutral',
];

/** VRM 0.x `presetName` → VRM 1.0 preset, as three-vrm's 0.x expression loader maps them (`unknown`: a custom one). */
export const VRM0_PRESET_NAMES: Readonly<Record<string, ExpressionPreset>> = {
  a: 'aa', i: 'ih', u: 'ou', e: 'ee', o: 'oh', blink: 'blink', joy: 'happy', angry: 'angry', sorrow: 'sad', fun: 'relaxed',
  lookup: 'lookUp', lookdown: 'lookDown', lookleft: 'lookLeft', lookright: 'lookRight',
  blink_l: 'blinkLeft', blink_r: 'blinkRight', neutral: 'neutral',
};

/** VRM 0.x `materialValues` colour properties → 1.0's material colour types (three-vrm's 0.x mapping). */
const VRM0_COLOR_PROPERTIES: Readonly<Record<string, MaterialColorTarget>> = {
  _Color: 'color', _ShadeColor: 'shadeColor', _EmissionColor: 'emissionColor', _RimColor: 'rimColor', _OutlineColor: 'outlineColor',
};

const COLOR_TYPES: readonly string[] = ['color', 'emissionColor', 'shadeColor', 'matcapColor', 'rimColor', 'outlineColor'];
const OVERRIDES: readonly string[] = ['none', 'block', 'blend'];
const PRESET_SET: ReadonlySet<string> = new Set(EXPRESSION_PRESETS);

/**
 * VRM 1.0 `VRMC_vrm.expressions` → expressions in file order, presets then custom (VRMC_vrm-1.0 `expressions.md`).
 * Defaults as the specification's schema: `isBinary` false, the three overrides `none`, a texture transform's
 * `scale` [1, 1] and `offset` [0, 0]. A morph target bind names a node: its mesh instance's morph weight
 * `morphWeightOffset + index`.
 *
 * A malformed expression (a bind naming no mesh node, a morph target past the mesh's, a material past the file's,
 * a weight or colour that is not a finite number, an unknown override or colour type), a preset key that is no
 * 1.0 preset, and a custom expression named like a preset are dropped, one warning each naming the JSON pointer;
 * three-vrm drops a bad bind instead and keeps the rest of the expression, Sinew the whole expression, so what
 * plays is what the file meant or nothing.
 */
export function readVrm1Expressions(reading: VrmReading, expressions: unknown, where: string): ExpressionAsset[] {
  const out: ExpressionAsset[] = [];
  if (expressions === undefined) return out;
  if (!isJsonObject(expressions)) {
    reading.warnings.push(`${reading.fileName}: ${where} is ${quoteValue(expressions)}, not an object; no expressions`);
    return out;
  }
  for (const group of ['preset', 'custom'] as const) {
    const entries = expressions[group];
    if (entries === undefined) continue;
    const groupWhere = `${where}/${group}`;
    if (!isJsonObject(entries)) {
      reading.warnings.push(`${reading.fileName}: ${groupWhere} is ${quoteValue(entries)}, not an object; ignored`);
      continue;
    }
    for (const [name, value] of Object.entries(entries)) {
      const at = `${groupWhere}/${pointerToken(name)}`;
      const drop = (problem: string) => reading.warnings.push(`${reading.fileName}: ${at} ${problem}; expression ${quoteValue(name)} dropped`);
      if (group === 'preset' && !PRESET_SET.has(name)) drop('is not a VRM 1.0 expression preset');
      else if (group === 'custom' && PRESET_SET.has(name)) drop('has a preset\'s name, which a custom expression may not have');
      else {
        try {
          out.push(readVrm1Expression(reading, name, group === 'preset' ? (name as ExpressionPreset) : null, value, at));
        } catch (error) {
          if (!(error instanceof DroppedPart)) throw error;
          reading.warnings.push(`${reading.fileName}: ${error.where} ${error.problem}; expression ${quoteValue(name)} dropped`);
        }
      }
    }
  }
  return out;
}

function readVrm1Expression(reading: VrmReading, name: string, preset: ExpressionPreset | null, value: unknown, at: string): ExpressionAsset {
  if (!isJsonObject(value)) throw dropped(at, value, 'an object');
  const e = value as Partial<Expression>;
  const list = (key: string): unknown[] => {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw dropped(`${at}/${key}`, v, 'an array');
    return v;
  };
  const morphTargetBinds = list('morphTargetBinds').map((bind, i): ExpressionMorphBind => {
    const bindAt = `${at}/morphTargetBinds/${i}`;
    if (!isJsonObject(bind)) throw dropped(bindAt, bind, 'an object');
    const weight = bind.weight;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) throw dropped(`${bindAt}/weight`, weight, 'a finite number');
    return { morphWeight: morphWeightOfNode(reading, bind.node, bind.index, bindAt), weight };
  });
  const materialCount = reading.json.materials?.length ?? 0;
  const materialColorBinds = list('materialColorBinds').map((bind, i): ExpressionColorBind => {
    const bindAt = `${at}/materialColorBinds/${i}`;
    if (!isJsonObject(bind)) throw dropped(bindAt, bind, 'an object');
    if (!isIndex(bind.material, materialCount)) throw dropped(`${bindAt}/material`, bind.material, `a material index (the file has ${materialCount})`);
    if (typeof bind.type !== 'string' || !COLOR_TYPES.includes(bind.type)) throw dropped(`${bindAt}/type`, bind.type, `one of ${COLOR_TYPES.join(', ')}`);
    if (!isFiniteTuple(bind.targetValue, 4)) throw dropped(`${bindAt}/targetValue`, bind.targetValue, 'four finite numbers');
    const [r, g, b, a] = bind.targetValue;
    return { material: bind.material, type: bind.type as MaterialColorTarget, targetValue: [r, g, b, a] };
  });
  const textureTransformBinds = list('textureTransformBinds').map((bind, i): ExpressionTextureTransformBind => {
    const bindAt = `${at}/textureTransformBinds/${i}`;
    if (!isJsonObject(bind)) throw dropped(bindAt, bind, 'an object');
    if (!isIndex(bind.material, materialCount)) throw dropped(`${bindAt}/material`, bind.material, `a material index (the file has ${materialCount})`);
    const scale = bind.scale ?? [1, 1], offset = bind.offset ?? [0, 0];
    if (!isFiniteTuple(scale, 2)) throw dropped(`${bindAt}/scale`, scale, 'two finite numbers');
    if (!isFiniteTuple(offset, 2)) throw dropped(`${bindAt}/offset`, offset, 'two finite numbers');
    return { material: bind.material, scale: [scale[0], scale[1]], offset: [offset[0], offset[1]] };
  });
  const isBinary = e.isBinary ?? false;
  if (typeof isBinary !== 'boolean') throw dropped(`${at}/isBinary`, isBinary, 'true or false');
  const override = (key: 'overrideBlink' | 'overrideLookAt' | 'overrideMouth'): ExpressionOverride => {
    const v = e[key] ?? 'none';
    if (typeof v !== 'string' || !OVERRIDES.includes(v)) throw dropped(`${at}/${key}`, v, 'none, block or blend');
    return v as ExpressionOverride;
  };
  return {
    name, preset, isBinary,
    overrideBlink: override('overrideBlink'), overrideLookAt: override('overrideLookAt'), overrideMouth: override('overrideMouth'),
    morphTargetBinds, materialColorBinds, textureTransformBinds,
  };
}

/** The morph weight a 1.0 bind's `node` and `index` name: the node's mesh instance's `morphWeightOffset + index`. */
function morphWeightOfNode(reading: VrmReading, node: unknown, index: unknown, bindAt: string): number {
  const nodeCount = reading.jointOfNode.length;
  if (!isIndex(node, nodeCount)) throw dropped(`${bindAt}/node`, node, `a node index (the file has ${nodeCount})`);
  const instance = reading.meshInstances.find((m) => m.sourceNode === node);
  const count = instance === undefined ? 0 : reading.morphTargetCountOf(instance.mesh);
  if (instance === undefined || instance.morphWeightOffset === undefined || count === 0) {
    throw new DroppedPart(`${bindAt}/node`, `is ${node}, a node without a mesh with morph targets`);
  }
  if (!isIndex(index, count)) throw dropped(`${bindAt}/index`, index, `a morph target of node ${node}'s mesh (it has ${count})`);
  return instance.morphWeightOffset + index;
}

/**
 * VRM 0.x `VRM.blendShapeMaster.blendShapeGroups` → expressions in VRM 1.0 semantics, as three-vrm's 0.x loader
 * converts them: `presetName` through {@link VRM0_PRESET_NAMES} (`unknown` or absent: a custom expression named
 * by `name`); overrides `none` (0.x has none); a bind's `weight` 0–100 divided by 100 (default 100), and its `mesh`
 * drives every node that carries that mesh; `materialValues` name a material by `name`: `_Color`, `_ShadeColor`,
 * `_EmissionColor`, `_RimColor`, `_OutlineColor` become colour binds (the four values as given), `_MainTex_ST`
 * (scale x, y, offset x, y in Unity's bottom-up UV) a texture transform bind whose offset y is `1 − y − scale y`
 * (glTF's top-down UV, as three-vrm flips it).
 *
 * A group without name, a name taken by an earlier group, and a malformed group (a bind naming no mesh or a morph
 * target past the mesh's, a weight or value that is not a finite number, a material name no material has) are
 * dropped, one warning each; a material property Sinew does not drive is ignored with a warning.
 */
export function readVrm0Expressions(reading: VrmReading, blendShapeMaster: unknown, where: string): ExpressionAsset[] {
  const out: ExpressionAsset[] = [];
  if (blendShapeMaster === undefined) return out;
  const groups = isJsonObject(blendShapeMaster) ? blendShapeMaster.blendShapeGroups : blendShapeMaster;
  const groupsWhere = `${where}/blendShapeGroups`;
  if (groups === undefined) return out;
  if (!Array.isArray(groups)) {
    reading.warnings.push(`${reading.fileName}: ${isJsonObject(blendShapeMaster) ? groupsWhere : where} is ${quoteValue(groups)}, not ${isJsonObject(blendShapeMaster) ? 'an array' : 'an object'}; no expressions`);
    return out;
  }
  const names = new Set<string>();
  groups.forEach((group: unknown, i) => {
    const at = `${groupsWhere}/${i}`;
    const g: BlendShapeGroup = isJsonObject(group) ? group : {};
    const preset = typeof g.presetName === 'string' ? VRM0_PRESET_NAMES[g.presetName] ?? null : null;
    const name = preset ?? (typeof g.name === 'string' && g.name !== '' ? g.name : null);
    const drop = (problemAt: string, problem: string) => reading.warnings.push(`${reading.fileName}: ${problemAt} ${problem}; expression ${quoteValue(name ?? i)} dropped`);
    if (!isJsonObject(group)) return drop(at, `is ${quoteValue(group)}, not an object`);
    if (name === null) return drop(at, 'has no name and no preset');
    if (names.has(name)) return drop(at, `is a second expression named ${quoteValue(name)}`);
    names.add(name);
    try {
      out.push(readVrm0Group(reading, name, preset, g, at));
    } catch (error) {
      if (!(error instanceof DroppedPart)) throw error;
      drop(error.where, error.problem);
    }
  });
  return out;
}

function readVrm0Group(reading: VrmReading, name: string, preset: ExpressionPreset | null, g: BlendShapeGroup, at: string): ExpressionAsset {
  const binds: unknown = g.binds ?? [];
  if (!Array.isArray(binds)) throw dropped(`${at}/binds`, binds, 'an array');
  const meshCount = reading.json.meshes?.length ?? 0;
  const morphTargetBinds: ExpressionMorphBind[] = [];
  binds.forEach((bind: unknown, i) => {
    const bindAt = `${at}/binds/${i}`;
    if (!isJsonObject(bind)) throw dropped(bindAt, bind, 'an object');
    if (!isIndex(bind.mesh, meshCount)) throw dropped(`${bindAt}/mesh`, bind.mesh, `a mesh index (the file has ${meshCount})`);
    const weight = bind.weight ?? 100;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) throw dropped(`${bindAt}/weight`, weight, 'a finite number');
    const count = reading.morphTargetCountOf(bind.mesh);
    if (!isIndex(bind.index, count)) throw dropped(`${bindAt}/index`, bind.index, `a morph target of mesh ${bind.mesh} (it has ${count})`);
    const instances = reading.meshInstances.filter((m) => m.mesh === bind.mesh && m.morphWeightOffset !== undefined);
    if (instances.length === 0) throw new DroppedPart(`${bindAt}/mesh`, `is ${bind.mesh}, a mesh no node carries`);
    for (const instance of instances) morphTargetBinds.push({ morphWeight: instance.morphWeightOffset! + bind.index, weight: weight / 100 });
  });
  const materialColorBinds: ExpressionColorBind[] = [];
  const textureTransformBinds: ExpressionTextureTransformBind[] = [];
  const values: unknown = g.materialValues ?? [];
  if (!Array.isArray(values)) throw dropped(`${at}/materialValues`, values, 'an array');
  const materials = reading.json.materials ?? [];
  const ignored: string[] = [];
  values.forEach((value: unknown, i) => {
    const valueAt = `${at}/materialValues/${i}`;
    if (!isJsonObject(value)) throw dropped(valueAt, value, 'an object');
    const { materialName, propertyName, targetValue } = value;
    const material = materials.findIndex((m) => m.name === materialName);
    if (material < 0) throw dropped(`${valueAt}/materialName`, materialName, 'the name of a material');
    if (!isFiniteTuple(targetValue, 4)) throw dropped(`${valueAt}/targetValue`, targetValue, 'four finite numbers');
    const [x, y, z, w] = targetValue;
    if (propertyName === '_MainTex_ST') {
      textureTransformBinds.push({ material, scale: [x, y], offset: [z, 1 - w - y] });
    } else if (typeof propertyName === 'string' && Object.hasOwn(VRM0_COLOR_PROPERTIES, propertyName)) {
      materialColorBinds.push({ material, type: VRM0_COLOR_PROPERTIES[propertyName], targetValue: [x, y, z, w] });
    } else {
      ignored.push(`${valueAt}/propertyName`);
    }
  });
  const isBinary = g.isBinary ?? false;
  if (typeof isBinary !== 'boolean') throw dropped(`${at}/isBinary`, isBinary, 'true or false');
  for (const place of ignored) reading.warnings.push(`${reading.fileName}: ${place} names a material property Sinew does not drive; ignored`);
  return {
    name, preset, isBinary, overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none',
    morphTargetBinds, materialColorBinds, textureTransformBinds,
  };
}
