import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { sinew } from './run-sinew.ts';

// `sinew inspect X.md5anim` describes the animation: checked against the file's own text, read here by a few
// regular expressions (MD5Version 10: numFrames, frameRate, numAnimatedComponents, the hierarchy's
// "name" parent flags startIndex lines; flag bits Tx 1, Ty 2, Tz 4, Qx 8, Qy 16, Qz 32).

const FLAGS = ['Tx', 'Ty', 'Tz', 'Qx', 'Qy', 'Qz'];

function expectedFromText(text: string, file: string): object {
  const number = (key: string) => Number(new RegExp(`^${key}\\s+(\\S+)`, 'm').exec(text)![1]);
  const hierarchy = /hierarchy\s*\{([^}]*)\}/.exec(text)![1];
  const joints = [...hierarchy.matchAll(/"([^"]*)"\s+(-?\d+)\s+(\d+)\s+\d+/g)].map(([, name, parent, flags]) => ({
    name,
    parent: Number(parent),
    channels: FLAGS.filter((_, bit) => Number(flags) & (1 << bit)),
  }));
  const frames = number('numFrames'), rate = number('frameRate');
  return {
    file,
    format: 'md5anim',
    upAxis: 'z',
    frameCount: frames,
    frameRate: rate,
    duration: (frames - 1) / rate,
    animatedComponentCount: number('numAnimatedComponents'),
    joints,
    // One clip named after the file: a translation and a rotation channel per joint.
    clips: [{ name: file.replace(/\.md5anim$/, ''), duration: (frames - 1) / rate, channelCount: 2 * joints.length, interpolations: ['LINEAR'] }],
    warnings: [],
  };
}

const folder = mkdtempSync(join(tmpdir(), 'sinew-inspect-anim-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Two joints: the root animates Tx only, the arm Qx and Qz; 3 frames at 10 fps. */
const WAVE = `MD5Version 10
commandline ""

numFrames 3
numJoints 2
frameRate 10
numAnimatedComponents 3

hierarchy {
\t"root"\t-1 1 0
\t"arm"\t0 40 1
}

bounds {
\t( 0 0 0 ) ( 1 1 1 )
\t( 0 0 0 ) ( 1 1 1 )
\t( 0 0 0 ) ( 1 1 1 )
}

baseframe {
\t( 0 0 0 ) ( 0 0 0 )
\t( 0 1 0 ) ( 0 0 0 )
}

frame 0 {
\t0 0 0
}

frame 1 {
\t0.5 0.1 0
}

frame 2 {
\t1 0.2 0.1
}
`;

describe('sinew inspect X.md5anim', () => {
  const wave = join(folder, 'Wave.md5anim');
  writeFileSync(wave, WAVE);

  it('prints the frames, frame rate, duration, joints and their animated channels (--json)', async () => {
    const result = await sinew('inspect', wave, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual(expectedFromText(WAVE, 'Wave.md5anim'));
    expect(report.joints).toEqual([{ name: 'root', parent: -1, channels: ['Tx'] }, { name: 'arm', parent: 0, channels: ['Qx', 'Qz'] }]);
    expect(report.duration).toBeCloseTo(0.2, 12);
  });

  it('as text: a summary line, the joints table, the clip', async () => {
    const result = await sinew('inspect', wave);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Wave\.md5anim: MD5 animation, Z up, 2 joints, 3 frames at 10 fps, 0\.200 s\n/);
    expect(result.stdout).toMatch(/^joints \(2, 3 animated components a frame\)\n#\s+name\s+parent\s+animated\n[- ]+\n0\s+root\s+-\s+Tx\n1\s+arm\s+0\s+Qx Qz$/m);
    expect(result.stdout).toMatch(/^0\s+Wave\s+0\.200\s+4\s+LINEAR$/m);
    expect(result.stdout).toMatch(/^warnings \(0\)$/m);
  });

  it('--anim does not apply to an animation; a malformed anim names its file and line', async () => {
    const withAnim = await sinew('inspect', wave, '--anim', wave);
    expect(withAnim.code).toBe(1);
    expect(withAnim.stderr).toMatch(/Wave\.md5anim: --anim applies to a model; Wave\.md5anim is an animation/);
    const broken = join(folder, 'Broken.md5anim');
    writeFileSync(broken, WAVE.replace('frameRate 10', 'frameRate 0'));
    const bad = await sinew('inspect', broken);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^sinew: Broken\.md5anim:6: /);
  });
});

const assets = sharedAssets();

describe.skipIf(!assets)('sinew inspect Bob.md5anim', () => {
  it('matches the file\'s own text', async () => {
    const path = join(assets!, 'md5', 'Bob.md5anim');
    const result = await sinew('inspect', path, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual(expectedFromText(readFileSync(path, 'latin1'), 'Bob.md5anim'));
    expect(report.joints).toHaveLength(33);
    expect(report.frameCount).toBe(140);
  });
});
