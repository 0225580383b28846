import type { Accessor, GLTF } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';
import { TYPE_COMPONENTS } from './validate-gltf-json.ts';

/** glTF accessor component types (glTF 2.0 §3.6.2.2). */
export const BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126;

const COMPONENT_NAMES: Readonly<Record<number, string>> = {
  [BYTE]: 'BYTE', [UNSIGNED_BYTE]: 'UNSIGNED_BYTE', [SHORT]: 'SHORT', [UNSIGNED_SHORT]: 'UNSIGNED_SHORT',
  [UNSIGNED_INT]: 'UNSIGNED_INT', [FLOAT]: 'FLOAT',
};

/**
 * Reads validated accessors through gltf-transform (which resolves byte strides, sparse substitution and
 * zero-filled accessors into one dense typed array per accessor) and checks their type against what the
 * reading site allows.
 */
export class GltfAccessors {
  /** Accessors whose own float array {@link readFloats} has handed out uncopied. */
  private readonly handedOut = new Set<number>();

  constructor(
    private readonly fileName: string,
    private readonly json: readonly GLTF.IAccessor[],
    private readonly accessors: readonly Accessor[],
  ) {}

  /** Element count of accessor `index`. */
  count(index: number): number {
    return this.json[index].count;
  }

  /**
   * Accessor `index` as floats, `count · components` long. Normalized integer components are de-normalised
   * with the glTF 2.0 §3.11 / Appendix formulas: unsigned `c / (2ⁿ − 1)`, signed `max(c / (2ⁿ⁻¹ − 1), −1)`.
   *
   * @param place where the accessor is used, for messages (e.g. `/meshes/0/primitives/0/attributes/WEIGHTS_0`)
   * @param types allowed accessor types (e.g. `['VEC4']`)
   * @param normalizedTypes integer component types allowed when `normalized` is true (FLOAT is always allowed)
   * @throws LoadError `fileName: place …` when the type or component type is not allowed
   */
  readFloats(index: number, place: string, types: readonly string[], normalizedTypes: readonly number[]): Float32Array {
    const def = this.json[index];
    this.checkType(index, place, types);
    const raw = this.array(index);
    if (def.componentType === FLOAT) {
      // An array gltf-transform made for this accessor alone (zero-filled, sparse, strided) is handed out as it
      // is, once: copying it would hold the accessor twice while the model loads. A second read of the same
      // accessor gets a copy, so no two callers share an array (animation rotations are normalised in place);
      // a view into a shared buffer is copied, so the asset never keeps the file's whole buffer alive.
      const owned = raw instanceof Float32Array && raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && !this.handedOut.has(index);
      if (owned) this.handedOut.add(index);
      return this.finite(owned ? raw : Float32Array.from(raw), index, place);
    }
    if (!def.normalized || !normalizedTypes.includes(def.componentType)) {
      const allowed = ['FLOAT', ...normalizedTypes.map((t) => `normalized ${COMPONENT_NAMES[t]}`)].join(', ');
      throw new LoadError(this.fileName, place, formatCode(place), `uses accessor ${index} of ${def.normalized ? 'normalized ' : ''}${COMPONENT_NAMES[def.componentType]}; allowed: ${allowed}`);
    }
    return denormalize(raw, def.componentType);
  }

  /**
   * Accessor `index` as floats where KHR_mesh_quantization widens the allowed types: like {@link readFloats},
   * and also integer components stored without `normalized`, converted as they are (`5` → 5.0).
   *
   * @param normalizedTypes integer component types allowed with `normalized: true` (de-normalised)
   * @param integerTypes integer component types allowed without `normalized` (converted as they are)
   * @throws LoadError `fileName: place …` when the type or component type is not allowed
   */
  readQuantized(index: number, place: string, types: readonly string[], normalizedTypes: readonly number[], integerTypes: readonly number[]): Float32Array {
    const def = this.json[index];
    if (def.componentType !== FLOAT && !def.normalized && integerTypes.includes(def.componentType)) {
      this.checkType(index, place, types);
      return Float32Array.from(this.array(index));
    }
    return this.readFloats(index, place, types, normalizedTypes);
  }

  /**
   * Accessor `index` as its stored unsigned integers (UNSIGNED_BYTE → Uint8Array, UNSIGNED_SHORT →
   * Uint16Array, UNSIGNED_INT → Uint32Array), `count · components` long; never normalised.
   * @throws LoadError `fileName: place …` when the type, the component type or `normalized: true` is not allowed
   */
  readUnsigned(index: number, place: string, types: readonly string[], componentTypes: readonly number[]): Uint8Array | Uint16Array | Uint32Array {
    const def = this.json[index];
    this.checkType(index, place, types);
    if (!componentTypes.includes(def.componentType) || def.normalized) {
      const allowed = componentTypes.map((t) => COMPONENT_NAMES[t]).join(', ');
      throw new LoadError(this.fileName, place, formatCode(place), `uses accessor ${index} of ${def.normalized ? 'normalized ' : ''}${COMPONENT_NAMES[def.componentType]}; allowed: ${allowed}`);
    }
    return this.array(index) as Uint8Array | Uint16Array | Uint32Array;
  }

  /**
   * `values` when every one is finite: NaN or ±∞ in a position, weight, matrix or key would spread through
   * every vertex it touches (glTF 2.0 §3.6.2.2: float components must be finite).
   * @throws LoadError `ACCESSOR_INVALID_FLOAT` naming the accessor, element and component
   */
  private finite(values: Float32Array, index: number, place: string): Float32Array {
    for (let i = 0; i < values.length; i++) {
      if (Number.isFinite(values[i])) continue;
      const components = TYPE_COMPONENTS[this.json[index].type] ?? 1;
      throw new LoadError(this.fileName, place, 'ACCESSOR_INVALID_FLOAT',
        `uses accessor ${index}, whose element ${Math.floor(i / components)} component ${i % components} is ${values[i]} (float components must be finite)`);
    }
    return values;
  }

  private checkType(index: number, place: string, types: readonly string[]): void {
    const type = this.json[index].type;
    if (!types.includes(type)) {
      throw new LoadError(this.fileName, place, formatCode(place), `uses accessor ${index} of type ${type}; expected ${types.join(' or ')}`);
    }
  }

  private array(index: number): ArrayLike<number> & { readonly length: number } {
    const array = this.accessors[index].getArray();
    const def = this.json[index];
    const expected = def.count * (TYPE_COMPONENTS[def.type] ?? 1);
    if (!array || array.length !== expected) {
      throw new LoadError(this.fileName, `/accessors/${index}`, 'INTERNAL', `could not be read (${array ? array.length : 'no'} components, expected ${expected})`);
    }
    return array;
  }
}

/**
 * The glTF-Validator's code for an accessor of the wrong type or component type where `place` (a JSON pointer)
 * uses it: a primitive's attributes or indices, a skin's inverse bind matrices, an animation sampler's input or
 * output.
 */
function formatCode(place: string): LoadErrorCode {
  if (place.includes('/attributes/')) return 'MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT';
  if (place.endsWith('/indices')) return 'MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT';
  if (place.endsWith('/inverseBindMatrices')) return 'SKIN_IBM_INVALID_FORMAT';
  if (place.endsWith('/input')) return 'ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT';
  if (place.endsWith('/output')) return 'ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT';
  return 'ACCESSOR_INVALID_FORMAT';
}

/**
 * Integer components to floats per the glTF 2.0 normalized-integer rules (§3.11 "Animations", table of
 * `f = max(c / 127.0, -1.0)` etc.): BYTE `max(c/127, −1)`, UNSIGNED_BYTE `c/255`, SHORT `max(c/32767, −1)`,
 * UNSIGNED_SHORT `c/65535`. Allocates the result.
 */
export function denormalize(values: ArrayLike<number>, componentType: number): Float32Array {
  const out = new Float32Array(values.length);
  switch (componentType) {
    case BYTE: for (let i = 0; i < out.length; i++) out[i] = Math.max(values[i] / 127, -1); break;
    case UNSIGNED_BYTE: for (let i = 0; i < out.length; i++) out[i] = values[i] / 255; break;
    case SHORT: for (let i = 0; i < out.length; i++) out[i] = Math.max(values[i] / 32767, -1); break;
    case UNSIGNED_SHORT: for (let i = 0; i < out.length; i++) out[i] = values[i] / 65535; break;
    default: for (let i = 0; i < out.length; i++) out[i] = values[i];
  }
  return out;
}
