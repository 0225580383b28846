import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../../../src/math/did-you-mean.ts';
import { unknownClipHint } from '../../../src/animation/find-clip.ts';

// Expectations are counted by hand: Levenshtein edits between the lower-cased names, commander's closeness rule
// (at most 3 edits, more than 40 % of the longer name unedited).
describe('did you mean', () => {
  const clips = ['Survey', 'Walk', 'Run'];

  it('suggests a name that differs only in case (0 edits once lower-cased)', () => {
    expect(closestNames('walk', clips)).toEqual(['Walk']);
    expect(closestNames('SURVEY', clips)).toEqual(['Survey']);
  });

  it('suggests the name fewest edits away', () => {
    // "wlak" → "walk": two substitutions (l→a, a→l); "run" is 4 edits away.
    expect(closestNames('wlak', clips)).toEqual(['Walk']);
    // "Surve" → "Survey": one insertion.
    expect(closestNames('Surve', clips)).toEqual(['Survey']);
  });

  it('offers nothing for a name that is close to none, or is itself known', () => {
    // "Dance" → "Run": 4 edits (over 3); "Fly" → "Run": 3 edits but only 0 of 3 characters kept.
    expect(closestNames('Dance', clips)).toEqual([]);
    expect(closestNames('Fly', clips)).toEqual([]);
    expect(closestNames('Walk', clips)).toEqual([]);
    expect(didYouMean('Dance', clips)).toBe('');
  });

  it('lists equally close names in the given order, at most three, and never the empty name', () => {
    // "arm" → "Arm.L" / "Arm.R": 2 insertions each; "" is skipped.
    expect(closestNames('arm', ['', 'Arm.L', 'Arm.R', 'Leg.L'])).toEqual(['Arm.L', 'Arm.R']);
    expect(didYouMean('arm', ['Arm.L', 'Arm.R'])).toBe('did you mean "Arm.L" or "Arm.R"?');
    expect(closestNames('a', ['b', 'c', 'd', 'e', 'f'])).toEqual([]);
    expect(closestNames('ab', ['ac', 'ad', 'ae', 'af'])).toEqual(['ac', 'ad', 'ae']);
  });

  it('is what an unknown clip message says before the clips', () => {
    expect(unknownClipHint('walk', clips)).toBe('did you mean "Walk"? clips: "Survey", "Walk", "Run"');
    expect(unknownClipHint('Dance', clips)).toBe('clips: "Survey", "Walk", "Run"');
    expect(unknownClipHint('Dance', [])).toBe('clips: none');
  });
});
