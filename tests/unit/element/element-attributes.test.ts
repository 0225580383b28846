import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defineAttributeProperties, ELEMENT_ATTRIBUTE_NAMES, ELEMENT_ATTRIBUTES, parseLoadingSetting, propertyName, readAttribute,
  type AttributeSpec,
} from '../../../src/element/element-attributes.ts';

/**
 * The rows of the `<sinew-viewer>` attribute table in docs/reference/element-attributes.md (the attributes in
 * detail): attribute names (first cell) → meaning (second cell).
 */
function readmeAttributeRows(): Array<{ names: string[]; meaning: string }> {
  const page = readFileSync(new URL('../../../docs/reference/element-attributes.md', import.meta.url), 'utf8');
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| attribute | meaning |'));
  expect(header, 'docs/reference/element-attributes.md has the <sinew-viewer> attribute table').toBeGreaterThanOrEqual(0);
  const rows: Array<{ names: string[]; meaning: string }> = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [first, ...rest] = line.split('|').slice(1, -1).map((cell) => cell.trim());
    rows.push({ names: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]), meaning: rest.join('|') });
  }
  return rows;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('ELEMENT_ATTRIBUTES and docs/reference/element-attributes.md', () => {
  const rows = readmeAttributeRows();

  it("the page's table lists exactly the table's attributes, in its order", () => {
    expect(rows.flatMap((r) => r.names)).toEqual([...ELEMENT_ATTRIBUTE_NAMES]);
  });

  it("the page states each attribute's default as the table does", () => {
    for (const { names, meaning } of rows) {
      for (const name of names) {
        const spec: AttributeSpec = ELEMENT_ATTRIBUTES[name as keyof typeof ELEMENT_ATTRIBUTES];
        if (spec.kind === 'boolean') {
          expect(meaning, name).toMatch(/^boolean:/);
          expect(spec.absent, name).toBeNull();
          continue;
        }
        expect(meaning, name).not.toMatch(/^boolean:/);
        expect(spec.absent, name).not.toBeNull();
        const absent = escapeRegExp(spec.absent!);
        expect(meaning, name).toMatch(new RegExp(`default:? ${absent}|${absent} \\(default\\)|absent: ${absent}`, 'i'));
      }
    }
  });
});

/** The DOM attribute methods the reflected properties use, over a map. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name);
  }
  toggleAttribute(name: string, force: boolean): boolean {
    if (force) this.attributes.set(name, '');
    else this.attributes.delete(name);
    return force;
  }
}

describe('defineAttributeProperties', () => {
  class Reflecting extends FakeElement {}
  defineAttributeProperties(Reflecting.prototype);
  const make = (): FakeElement & Record<string, unknown> => new Reflecting() as FakeElement & Record<string, unknown>;

  it('defines one accessor per attribute on the prototype, none on instances', () => {
    for (const name of ELEMENT_ATTRIBUTE_NAMES) {
      const descriptor = Object.getOwnPropertyDescriptor(Reflecting.prototype, propertyName(name));
      expect(typeof descriptor?.get, name).toBe('function');
      expect(typeof descriptor?.set, name).toBe('function');
    }
    expect(Object.keys(make())).toEqual(['attributes']);
  });

  it('names a hyphenated attribute\'s property in camelCase: root-motion → rootMotion, read as written', () => {
    expect(propertyName('root-motion')).toBe('rootMotion');
    expect(propertyName('src')).toBe('src');
    const el = make();
    expect(el.rootMotion).toBeNull();
    el.rootMotion = 'in-place';
    expect(el.getAttribute('root-motion')).toBe('in-place');
    expect(readAttribute(el as never, 'root-motion', null).value).toBe('in-place');
    el.setAttribute('root-motion', 'sideways');
    expect(readAttribute(el as never, 'root-motion', null)).toEqual({ value: null, error: 'expected off, in-place or applied' });
    el.removeAttribute('root-motion');
    expect(readAttribute(el as never, 'root-motion', null).value).toBe('off');
  });

  it('reflects text attributes as written, null when absent', () => {
    const el = make();
    expect(el.src).toBeNull();
    el.src = 'm/Fox.glb';
    expect(el.getAttribute('src')).toBe('m/Fox.glb');
    expect(el.src).toBe('m/Fox.glb');
    el.setAttribute('palette', 'bogus');
    expect(el.palette).toBe('bogus');
    el.src = null;
    expect(el.hasAttribute('src')).toBe(false);
  });

  it('reflects number attributes through their parser: null when absent or malformed', () => {
    const el = make();
    expect(el.pitch).toBeNull();
    el.pitch = 30;
    expect(el.getAttribute('pitch')).toBe('30');
    expect(el.pitch).toBe(30);
    el.setAttribute('pitch', '120');
    expect(el.pitch).toBeNull();
    el.setAttribute('time', 'soon');
    expect(el.time).toBeNull();
    el.time = null;
    expect(el.hasAttribute('time')).toBe(false);
  });

  it('reflects boolean attributes by presence, and clip from a name or an index', () => {
    const el = make();
    expect(el.controls).toBe(false);
    el.controls = true;
    expect(el.getAttribute('controls')).toBe('');
    expect(el.controls).toBe(true);
    el.controls = false;
    expect(el.hasAttribute('controls')).toBe(false);
    el.clip = 2;
    expect(el.getAttribute('clip')).toBe('2');
    expect(el.clip).toBe('2');
    el.clip = 'Run';
    expect(el.clip).toBe('Run');
  });
});

describe('readAttribute', () => {
  it('reads by the rule and reports a malformed value naming the attribute', () => {
    const el = new FakeElement() as unknown as Element;
    const reports: string[] = [];
    el.setAttribute('speed', '-2');
    expect(readAttribute(el, 'speed', (m) => reports.push(m))).toEqual({ value: -2, error: null });
    el.setAttribute('loop', 'sometimes');
    expect(readAttribute(el, 'loop', (m) => reports.push(m)).value).toBeNull();
    expect(readAttribute(el, 'loop', null).error).toBe('expected loop, once or pingpong');
    expect(reports).toEqual(['<sinew-viewer loop="sometimes">: expected loop, once or pingpong']);
  });

  it('reads loading case-insensitively, auto when absent or malformed', () => {
    expect(parseLoadingSetting(null)).toEqual({ value: 'auto', error: null });
    expect(parseLoadingSetting(' LAZY ')).toEqual({ value: 'lazy', error: null });
    expect(parseLoadingSetting('eager')).toEqual({ value: 'eager', error: null });
    expect(parseLoadingSetting('later')).toEqual({ value: 'auto', error: 'expected auto, lazy or eager' });
  });
});
