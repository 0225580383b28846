import { describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';
import { md5ToModelAsset } from '../../../src/loaders/md5/md5-to-model-asset.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { md5AssetsAvailable, readMd5Text } from '../helpers/md5-assets.ts';

/** Runs `f`, expects a LoadError whose `where` is a line, returns it with that line as `line`. */
function parseError(f: () => unknown): LoadError & { line: number } {
  const e = loadError(f);
  expect(e.where).toMatch(/^\d+$/);
  expect(e.code).toMatch(/^MD5_[A-Z_]+$/);
  return Object.assign(e, { line: Number(e.where) });
}

/** Runs `f`, expects a LoadError, returns it. */
function loadError(f: () => unknown): LoadError {
  try {
    f();
  } catch (e) {
    if (e instanceof LoadError) return e;
    throw new Error(`expected a LoadError, got ${String(e)}`);
  }
  throw new Error('expected a LoadError, nothing was thrown');
}

/** 1-based line of the first line of `text` containing `fragment`. */
function lineOf(text: string, fragment: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(fragment));
  if (i < 0) throw new Error(`no line contains ${fragment}`);
  return i + 1;
}

/** `text` with the first occurrence of line content `from` replaced by `to` (must exist). */
function mutate(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`mutation source missing: ${from}`);
  return text.replace(from, to);
}

describe.skipIf(!md5AssetsAvailable)('the four invalid files of ../shared/assets/md5/invalid', () => {
  const cases: [string, string, string][] = [
    ['InvalidBoneIndex.md5mesh', 'weight 0 999', 'weight 0 names joint 999 of 1'],
    ['OverflowingTriangleIndex.md5mesh', 'tri 4294967295', 'tri index 4294967295 out of range: numtris is 1'],
    ['OverflowingVertexIndex.md5mesh', 'vert 4294967295', 'vert index 4294967295 out of range: numverts is 1'],
    ['OverflowingWeightIndex.md5mesh', 'weight 4294967295', 'weight index 4294967295 out of range: numweights is 1'],
  ];
  for (const [file, fragment, problem] of cases) {
    it(`${file} → LoadError at the offending line`, () => {
      const text = readMd5Text(`invalid/${file}`);
      const e = parseError(() => parseMd5Mesh(file, text));
      expect(e.file).toBe(file);
      expect(e.line).toBe(lineOf(text, fragment));
      expect(e.where).toBe(String(lineOf(text, fragment)));
      expect(e.code).toBe('MD5_INDEX_OUT_OF_RANGE');
      expect(e.problem).toBe(problem);
      expect(e.message).toBe(`${file}:${e.line}: ${problem}`);
    });
  }
});

describe.skipIf(!md5AssetsAvailable)('mutated and truncated copies of Bob.md5mesh', () => {
  const bob = md5AssetsAvailable ? readMd5Text('Bob.md5mesh') : '';

  it('a weight naming joint 40 of 33', () => {
    const text = mutate(bob, '\tweight 9 5 0.500000', '\tweight 9 40 0.500000');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.message).toBe(`Bob.md5mesh:${lineOf(text, '\tweight 9 40 ')}: weight 9 names joint 40 of 33`);
  });

  it('a vertex using weights past numweights', () => {
    const text = mutate(bob, 'vert 4 ( 0.341797 0.449219 ) 6 2', 'vert 4 ( 0.341797 0.449219 ) 6000 2');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.line).toBe(lineOf(text, 'vert 4 ( 0.341797'));
    expect(e.problem).toMatch(/^vert 4 uses weights 6000…6001 of \d+$/);
  });

  it('a triangle naming a vertex past numverts', () => {
    const firstTri = /\ttri 0 (\d+) (\d+) (\d+)/.exec(bob)!;
    const text = mutate(bob, firstTri[0], `\ttri 0 ${firstTri[1]} 494 ${firstTri[3]}`);
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.line).toBe(lineOf(text, `\ttri 0 ${firstTri[1]} 494 `));
    expect(e.problem).toBe('tri 0 names vertex 494 of 494');
  });

  it('a joint naming parent 33 of 33', () => {
    const text = mutate(bob, '"pelvis"\t3 (', '"pelvis"\t33 (');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.message).toBe(`Bob.md5mesh:12: joint 4 "pelvis" names parent 33 of 33`);
    expect(e.code).toBe('MD5_INDEX_OUT_OF_RANGE');
  });

  it('a parent cycle', () => {
    const text = mutate(bob, '"pubis"\t0 (', '"pubis"\t4 (');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.problem).toMatch(/is its own ancestor/);
    expect(e.code).toBe('MD5_JOINT_CYCLE');
  });

  it('numverts larger than the verts given', () => {
    const text = mutate(bob, 'numverts 494', 'numverts 495');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.problem).toBe('mesh at line 43 has 494 verts, numverts is 495');
    expect(e.code).toBe('MD5_COUNT_MISMATCH');
  });

  it('a huge count fails at its line instead of allocating gigabytes', () => {
    for (const [from, to] of [['numverts 494', 'numverts 2000000000'], ['numverts 494', 'numverts 300000000'], ['numMeshes 6', 'numMeshes 99999999']]) {
      const text = mutate(bob, from, to);
      const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
      expect(e.line).toBe(lineOf(text, to));
      expect(e.problem).toMatch(new RegExp(`^${to} is more than the rest of the file can hold \\(\\d+ tokens left\\)$`));
    }
  });

  it('numJoints larger than the joints given', () => {
    const text = mutate(bob, 'numJoints 33', 'numJoints 34');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.problem).toBe('found 33 joints, numJoints is 34');
    expect(e.line).toBe(lineOf(text, 'mesh {') - 2); // the joints block's closing brace
  });

  it('a non-number coordinate', () => {
    const text = mutate(bob, '( 0.014076 2.592741 30.241238 )', '( 0.014076 2.59x2741 30.241238 )');
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.message).toBe("Bob.md5mesh:12: position of joint 4 must be a number, found '2.59x2741'");
    expect(e.code).toBe('MD5_SYNTAX');
  });

  it('an unknown version', () => {
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', mutate(bob, 'MD5Version 10', 'MD5Version 11')));
    expect(e.message).toBe('Bob.md5mesh:1: MD5Version 11 is not supported (only 10)');
    expect(e.code).toBe('MD5_UNSUPPORTED_VERSION');
  });

  it('truncated at several points → LoadError naming the file and a line inside it', () => {
    const lines = bob.split('\n');
    for (const fraction of [0.001, 0.05, 0.3, 0.5, 0.9, 0.999]) {
      const keep = Math.max(1, Math.floor(lines.length * fraction));
      const text = lines.slice(0, keep).join('\n');
      const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
      expect(e.file).toBe('Bob.md5mesh');
      expect(e.line).toBeGreaterThanOrEqual(1);
      expect(e.line).toBeLessThanOrEqual(keep);
    }
  });

  it('truncated in the middle of a line → LoadError on that line', () => {
    const cut = bob.indexOf('weight 12 ') + 'weight 12 '.length + 3; // inside "weight 12 <joint> <bias> ( … )"
    const text = bob.slice(0, cut);
    const e = parseError(() => parseMd5Mesh('Bob.md5mesh', text));
    expect(e.line).toBe(text.split('\n').length);
  });
});

describe.skipIf(!md5AssetsAvailable)('mutated and truncated copies of Bob.md5anim', () => {
  const anim = md5AssetsAvailable ? readMd5Text('Bob.md5anim') : '';

  it('a frame with a missing number', () => {
    // Drop the first number of frame 5.
    const at = anim.indexOf('frame 5 {') + 'frame 5 {'.length;
    const text = anim.slice(0, at) + anim.slice(at).replace(/^\s*\S+/, '');
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    const closeLine = text.slice(0, text.indexOf('}', at)).split('\n').length; // the block's closing brace
    expect(e.message).toBe(`Bob.md5anim:${closeLine}: frame 5 has 197 numbers, numAnimatedComponents is 198`);
  });

  it('huge numFrames or numAnimatedComponents fail at their line', () => {
    for (const [from, to] of [['numFrames 140', 'numFrames 2000000000'], ['numAnimatedComponents 198', 'numAnimatedComponents 2000000000'], ['numAnimatedComponents 198', 'numAnimatedComponents 60000']]) {
      const text = mutate(anim, from, to);
      const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
      expect(e.line).toBe(lineOf(text, to));
      expect(e.problem).toMatch(/is more than the rest of the file can hold/);
    }
  });

  it('a joint reading components past numAnimatedComponents', () => {
    const text = mutate(anim, '"tiptoe.L"\t31 63 192', '"tiptoe.L"\t31 63 193');
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    expect(e.message).toBe(
      `Bob.md5anim:${lineOf(text, '"tiptoe.L"')}: joint 32 "tiptoe.L" reads components 193…198 of numAnimatedComponents 198`,
    );
  });

  it('flags beyond 63', () => {
    const text = mutate(anim, '"sword"\t1 63 12', '"sword"\t1 64 12');
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    expect(e.message).toBe(`Bob.md5anim:12: flags of joint 2 must be in [0, 63], found 64`);
  });

  it('a frame index past numFrames', () => {
    const text = mutate(anim, 'frame 139 {', 'frame 140 {');
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    expect(e.message).toBe(`Bob.md5anim:${lineOf(text, 'frame 140 {')}: frame index 140 out of range: numFrames is 140`);
  });

  it('a frame given twice (and so one missing)', () => {
    const text = mutate(anim, 'frame 7 {', 'frame 6 {');
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    expect(e.message).toBe(`Bob.md5anim:${lineOf(text, 'frame 6 {') + 36}: frame 6 given twice`);
  });

  it('a frame rate of 0', () => {
    const e = parseError(() => parseMd5Anim('Bob.md5anim', mutate(anim, 'frameRate 24', 'frameRate 0')));
    expect(e.message).toBe('Bob.md5anim:6: frameRate must be > 0, found 0');
    expect(e.code).toBe('MD5_VALUE_OUT_OF_RANGE');
  });

  it('truncated before the last frame', () => {
    const text = anim.slice(0, anim.indexOf('frame 139 {'));
    const e = parseError(() => parseMd5Anim('Bob.md5anim', text));
    expect(e.problem).toBe('found 139 frames, numFrames is 140');
  });
});

describe.skipIf(!md5AssetsAvailable)('an md5anim that does not fit the md5mesh', () => {
  const meshText = md5AssetsAvailable ? readMd5Text('Bob.md5mesh') : '';
  const animText = md5AssetsAvailable ? readMd5Text('Bob.md5anim') : '';

  it('a different joint name → error naming both files and lines', () => {
    const mesh = parseMd5Mesh('Bob.md5mesh', meshText);
    const anim = parseMd5Anim('Bob.md5anim', mutate(animText, '"neck"\t5 63 36', '"nape"\t5 63 36'));
    const e = parseError(() => md5ToModelAsset(mesh, anim, 'Bob.md5mesh'));
    expect(e.message).toBe('Bob.md5anim:16: joint 6 is "nape" with parent 5, but Bob.md5mesh:14 has "neck" with parent 5');
    expect([e.file, e.where, e.code]).toEqual(['Bob.md5anim', '16', 'MD5_ANIM_MISMATCH']);
  });

  it('a different parent → error naming both files', () => {
    const mesh = parseMd5Mesh('Bob.md5mesh', meshText);
    const anim = parseMd5Anim('Bob.md5anim', mutate(animText, '"head"\t6 63 42', '"head"\t5 63 42'));
    expect(() => md5ToModelAsset(mesh, anim, 'Bob.md5mesh')).toThrow(/Bob\.md5anim:17: .*Bob\.md5mesh:15/);
  });

  it('the SimpleCube mesh with the Bob anim → joint count mismatch naming both files', () => {
    const mesh = parseMd5Mesh('SimpleCube.md5mesh', readMd5Text('SimpleCube.md5mesh'));
    const anim = parseMd5Anim('Bob.md5anim', animText);
    const e = parseError(() => md5ToModelAsset(mesh, anim, 'SimpleCube.md5mesh'));
    expect(e.message).toBe('Bob.md5anim:10: has 33 joints, SimpleCube.md5mesh has 3');
    expect([e.file, e.where, e.code, e.problem]).toEqual(['Bob.md5anim', '10', 'MD5_ANIM_MISMATCH', 'has 33 joints, SimpleCube.md5mesh has 3']);
  });
});

describe('unforeseen failures inside the MD5 loaders', () => {
  it('a runtime error while parsing is a LoadError naming the file (INTERNAL), never raw', () => {
    // A string whose every read throws stands in for a bug deep in the parser.
    const text = new Proxy(new String('MD5Version 10'), {
      get(target, key) {
        if (key === 'length' || key === 'charCodeAt') throw new TypeError('boom');
        return Reflect.get(target, key);
      },
    }) as unknown as string;
    const e = loadError(() => parseMd5Mesh('odd.md5mesh', text));
    expect([e.file, e.where, e.code, e.message]).toEqual(['odd.md5mesh', null, 'INTERNAL', 'odd.md5mesh: boom']);
    expect(e.cause).toBeInstanceOf(TypeError);
  });
});

describe('MD5 anim counts that multiply to gigabytes', () => {
  // Each count passes alone (numAnimatedComponents before numFrames is checked against no frame count); their
  // product, 357 892 096 numbers (2.9 GB of f64), must be refused before the first frame allocates it.
  const bomb = 'MD5Version 10\ncommandline ""\nnumAnimatedComponents 65536\nnumFrames 5461\nnumJoints 2\nframeRate 24\nframe 0 { 0 }\n';
  it('is refused at the first frame, naming both counts, whatever the header order', () => {
    const e = parseError(() => parseMd5Anim('bomb.md5anim', bomb));
    expect(e.code).toBe('MD5_COUNT_MISMATCH');
    expect(e.message).toMatch(/^bomb\.md5anim:7: numFrames 5461 × numAnimatedComponents 65536 need 357892096 numbers, more than the rest of the file holds/);
    const reordered = bomb.replace('numAnimatedComponents 65536\nnumFrames 5461', 'numFrames 5461\nnumAnimatedComponents 65536');
    expect(parseError(() => parseMd5Anim('bomb.md5anim', reordered)).code).toBe('MD5_COUNT_MISMATCH');
  });
});
