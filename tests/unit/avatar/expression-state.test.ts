import { describe, expect, it } from 'vitest';
import { ExpressionGroup, ExpressionState, expressionGroupOf } from '../../../src/avatar/expression-state.ts';
import { expression } from './avatar-fixtures.ts';

function resolved(state: ExpressionState): Record<string, number> {
  state.resolve();
  return Object.fromEntries(state.names.map((name, i) => [name, state.outputWeights[i]]));
}

describe('ExpressionState', () => {
  it('clamps input weights to [0, 1] and names unknown expressions in its error', () => {
    const state = new ExpressionState([expression('happy'), expression('blink')]);
    state.setExpression('happy', 1.7);
    state.setExpression('blink', -0.2);
    expect(state.getExpression('happy')).toBe(1);
    expect(state.getExpression('blink')).toBe(0);
    expect(() => state.setExpression('smile', 0.5)).toThrow(/no expression "smile" \(2 expressions: happy, blink\)/);
    expect(() => state.setExpression('happy', Number.NaN)).toThrow(/"happy": weight NaN is not a finite number/);
    expect(() => new ExpressionState([expression('a'), expression('a')])).toThrow(/"a" appears twice/);
  });

  it('groups the presets the overrides act on (VRMC_vrm-1.0 expressions.md) and nothing else', () => {
    expect(['blink', 'blinkLeft', 'blinkRight'].map(expressionGroupOf)).toEqual([1, 1, 1]);
    expect(['lookUp', 'lookDown', 'lookLeft', 'lookRight'].map(expressionGroupOf)).toEqual([2, 2, 2, 2]);
    expect(['aa', 'ih', 'ou', 'ee', 'oh'].map(expressionGroupOf)).toEqual([3, 3, 3, 3, 3]);
    expect(['happy', 'neutral', 'custom', 'toString'].map(expressionGroupOf)).toEqual([0, 0, 0, 0]);
  });

  it('isBinary: above 0.5 is 1, at or below is 0', () => {
    const state = new ExpressionState([expression('a', { isBinary: true }), expression('b', { isBinary: true }), expression('c')]);
    state.setExpression('a', 0.51);
    state.setExpression('b', 0.5);
    state.setExpression('c', 0.5);
    expect(resolved(state)).toEqual({ a: 1, b: 0, c: 0.5 });
  });

  it('block sets the blocked group to 0 while the blocker is above 0', () => {
    const state = new ExpressionState([expression('happy', { overrideBlink: 'block' }), expression('blink'), expression('blinkLeft'), expression('aa')]);
    state.setExpression('blink', 0.8);
    state.setExpression('blinkLeft', 0.6);
    state.setExpression('aa', 0.7);
    expect(resolved(state)).toEqual({ happy: 0, blink: Math.fround(0.8), blinkLeft: Math.fround(0.6), aa: Math.fround(0.7) });
    state.setExpression('happy', 0.01);
    expect(resolved(state)).toEqual({ happy: Math.fround(0.01), blink: 0, blinkLeft: 0, aa: Math.fround(0.7) });
    expect(state.multipliers[ExpressionGroup.Blink]).toBe(0);
  });

  it('blend multiplies by 1 − Σ blend weights, floored at 0', () => {
    const state = new ExpressionState([
      expression('happy', { overrideMouth: 'blend' }), expression('sad', { overrideMouth: 'blend' }), expression('aa'), expression('oh'),
    ]);
    state.setExpression('happy', 0.25);
    state.setExpression('aa', 0.8);
    state.setExpression('oh', 1);
    let out = resolved(state);
    expect(out.aa).toBeCloseTo(0.8 * 0.75, 7);
    expect(out.oh).toBeCloseTo(0.75, 7);
    state.setExpression('sad', 0.5);
    out = resolved(state);
    expect(out.aa).toBeCloseTo(0.8 * 0.25, 7);
    state.setExpression('sad', 0.9);
    expect(resolved(state).aa).toBe(0);
  });

  it('a binary blocker overrides by its binary output; a binary target overridden at all is 0', () => {
    const state = new ExpressionState([expression('happy', { isBinary: true, overrideBlink: 'blend' }), expression('blink', { isBinary: true }), expression('relaxed', { overrideBlink: 'blend' })]);
    state.setExpression('blink', 1);
    state.setExpression('happy', 0.4); // binary output 0: no effect
    expect(resolved(state).blink).toBe(1);
    state.setExpression('happy', 0);
    state.setExpression('relaxed', 0.1); // blink 1 · 0.9 < 1 → suppressed
    expect(resolved(state).blink).toBe(0);
  });

  it('an override of its own group is ignored (the specification), not self-suppressing', () => {
    const state = new ExpressionState([expression('blink', { overrideBlink: 'block' }), expression('blinkLeft'), expression('lookLeft', { overrideBlink: 'block' })]);
    state.setExpression('blink', 0.6);
    state.setExpression('blinkLeft', 0.3);
    expect(resolved(state)).toEqual({ blink: Math.fround(0.6), blinkLeft: Math.fround(0.3), lookLeft: 0 });
    state.setExpression('lookLeft', 0.2); // another group's override still applies
    expect(resolved(state)).toEqual({ blink: 0, blinkLeft: 0, lookLeft: Math.fround(0.2) });
  });
});
