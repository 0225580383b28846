import { describe, expect, it } from 'vitest';
import { AnimationEventList } from '../../../src/animation/animation-events.ts';
import { emitAnimationEvents } from '../../../src/element/element-events.ts';
import { graphSource, IGNORED_WITH_GRAPH, ignoredMessage, INLINE_GRAPH_FILE } from '../../../src/element/graph-source.ts';

// Where <sinew-viewer>'s animation graph comes from (the attribute wins over an inline script), the warning for
// what it ignores, and the DOM events its graph events become.

describe('graphSource', () => {
  it('the attribute wins over an inline script; a blank attribute counts as absent', () => {
    expect(graphSource('graphs/walk.json?v=2', '{"layers":[]}')).toEqual({ kind: 'url', url: 'graphs/walk.json?v=2', file: 'walk.json', key: 'url graphs/walk.json?v=2' });
    expect(graphSource('  ', '{"layers":[]}')).toEqual({ kind: 'inline', text: '{"layers":[]}', file: INLINE_GRAPH_FILE, key: 'inline {"layers":[]}' });
    expect(graphSource(null, '')).toEqual({ kind: 'inline', text: '', file: INLINE_GRAPH_FILE, key: 'inline ' });
    expect(graphSource(null, null)).toBeNull();
  });

  it('keys a URL by its resolved form, so two spellings of one file are one request', () => {
    const resolve = (url: string): string => new URL(url, 'https://example.com/page/').href;
    expect(graphSource('./g.json', null, resolve)!.key).toBe(graphSource('/page/g.json', null, resolve)!.key);
    expect(graphSource('a.json', null, resolve)!.key).not.toBe(graphSource('b.json', null, resolve)!.key);
  });
});

describe('ignoredMessage', () => {
  it('names the member, the attribute that makes it ignored, and why', () => {
    expect(ignoredMessage('animation-name')).toBe("animation-name is ignored while animation-graph is set: the graph's states choose the clips");
    for (const member of Object.keys(IGNORED_WITH_GRAPH) as (keyof typeof IGNORED_WITH_GRAPH)[]) {
      expect(ignoredMessage(member)).toMatch(new RegExp(`^${member.replace(/[()]/g, '\\$&')} is ignored while animation-graph is set: .+`));
    }
  });
});

describe('emitAnimationEvents with graph events', () => {
  it('fires state-enter/exit with { layer, state } and transition-start/end with { layer, from, to }, in order, once each', () => {
    const events = new AnimationEventList();
    events.addGraphEvent('transition-start', 1, 'Run', 'Walk');
    events.addGraphEvent('state-enter', 1, 'Run', '');
    events.addGraphEvent('state-exit', 1, 'Walk', '');
    events.addGraphEvent('transition-end', 1, 'Run', 'Walk');
    events.addGraphEvent('state-enter', 3, 'Wave', ''); // a layer without a name in the list: its index
    const target = new EventTarget();
    const heard: Array<{ type: string; detail: unknown; bubbles: boolean }> = [];
    for (const type of ['state-enter', 'state-exit', 'transition-start', 'transition-end', 'loop', 'marker']) {
      target.addEventListener(type, (e) => heard.push({ type, detail: (e as CustomEvent).detail, bubbles: e.bubbles }));
    }
    emitAnimationEvents(target, events, ['Base', 'Upper']);
    expect(heard).toEqual([
      { type: 'transition-start', detail: { layer: 'Upper', from: 'Walk', to: 'Run' }, bubbles: true },
      { type: 'state-enter', detail: { layer: 'Upper', state: 'Run' }, bubbles: true },
      { type: 'state-exit', detail: { layer: 'Upper', state: 'Walk' }, bubbles: true },
      { type: 'transition-end', detail: { layer: 'Upper', from: 'Walk', to: 'Run' }, bubbles: true },
      { type: 'state-enter', detail: { layer: '3', state: 'Wave' }, bubbles: true },
    ]);
  });
});
