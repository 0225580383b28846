import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ELEMENT_ATTRIBUTE_NAMES } from '../../../src/element/element-attributes.ts';
import {
  UNSUPPORTED_ATTRIBUTES, UNSUPPORTED_SLOTS, unsupportedAttributeMessage, unsupportedMessages, unsupportedSlotMessage,
} from '../../../src/element/unsupported-features.ts';

const MODEL_VIEWER_SRC = new URL('../../../node_modules/@google/model-viewer/src/', import.meta.url);

/**
 * The attributes `<model-viewer>` declares (lit `@property` decorators in model-viewer-base.ts and features/*.ts;
 * `<extra-model>`, another element, apart): the `attribute` option, else the property name lowercased, as lit does.
 */
function modelViewerAttributes(): string[] {
  const files = ['model-viewer-base.ts', ...readdirSync(new URL('features/', MODEL_VIEWER_SRC)).filter((f) => f.endsWith('.ts') && f !== 'extra-model.ts').map((f) => `features/${f}`)];
  const names = new Set<string>();
  for (const file of files) {
    const source = readFileSync(new URL(file, MODEL_VIEWER_SRC), 'utf8');
    for (const m of source.matchAll(/@property\(\s*(\{[^}]*\})?\s*\)\s*(?:declare\s+)?([A-Za-z0-9_]+)/g)) {
      const option = /attribute:\s*'([^']+)'/.exec(m[1] ?? '');
      names.add(option ? option[1] : m[2].toLowerCase());
    }
  }
  return [...names].sort();
}

/** The slot names of model-viewer's shadow template. */
function modelViewerSlots(): string[] {
  const template = readFileSync(new URL('template.ts', MODEL_VIEWER_SRC), 'utf8');
  return [...new Set([...template.matchAll(/<slot name="([^"]+)"/g)].map((m) => m[1]))].sort();
}

describe('the unsupported <model-viewer> attributes and slots', () => {
  it('reads a plausible list from model-viewer (the scan itself works)', () => {
    const names = modelViewerAttributes();
    expect(names).toEqual(expect.arrayContaining(['src', 'alt', 'camera-orbit', 'ar', 'ios-src', 'orientation', 'scale', 'a11y', 'poster', 'reveal', 'loading']));
    expect(names.length).toBeGreaterThan(40);
  });

  it('every model-viewer attribute is implemented or listed as ignored, never both', () => {
    const implemented = new Set<string>(ELEMENT_ATTRIBUTE_NAMES);
    const ignored = Object.keys(UNSUPPORTED_ATTRIBUTES);
    expect(ignored.filter((name) => implemented.has(name)), 'listed as ignored but implemented').toEqual([]);
    expect(modelViewerAttributes().filter((name) => !implemented.has(name)).sort()).toEqual([...ignored].sort());
  });

  it('names the attributes the issue found ignored in silence', () => {
    for (const name of ['ar', 'ar-modes', 'ios-src', 'touch-action', 'variant-name', 'ar-scale', 'ar-placement', 'xr-environment']) {
      expect(UNSUPPORTED_ATTRIBUTES[name], name).toBeTruthy();
    }
  });

  it("lists every named slot of model-viewer's template (Sinew slots only hotspot-…)", () => {
    expect(Object.keys(UNSUPPORTED_SLOTS).sort()).toEqual(modelViewerSlots());
    expect(UNSUPPORTED_SLOTS['ar-button']).toBeTruthy();
    expect(UNSUPPORTED_SLOTS['progress-bar']).toBeTruthy();
  });

  it('each warning names the attribute or slot and says it is ignored', () => {
    expect(unsupportedAttributeMessage('ar')).toBe("<sinew-viewer ar> is ignored: Sinew does not support <model-viewer>'s augmented reality.");
    expect(unsupportedSlotMessage('progress-bar')).toMatch(/^<sinew-viewer>: the child in slot="progress-bar" is ignored: /);
  });

  it('finds the unsupported attributes and slotted children of an element, in table order', () => {
    const attributes = new Map<string, string>([['src', 'a.glb'], ['variant-name', 'red'], ['ar', '']]);
    const child = (slot: string | null) => ({ getAttribute: (name: string) => (name === 'slot' ? slot : null) });
    const element = {
      hasAttribute: (name: string) => attributes.has(name),
      children: [child('hotspot-hand'), child('progress-bar'), child(null), child('ar-button')],
    } as unknown as Element;
    expect(unsupportedMessages(element)).toEqual([
      unsupportedAttributeMessage('ar'), unsupportedAttributeMessage('variant-name'),
      unsupportedSlotMessage('ar-button'), unsupportedSlotMessage('progress-bar'),
    ]);
  });
});
