import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { SINEW, sinew } from './run-sinew.ts';

const assets = sharedAssets();
const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8'));

describe('sinew command line', () => {
  it('--version prints package.json\'s version', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await sinew(flag);
      expect(result).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    }
  });

  it('--help lists the commands and exit statuses on stdout, exit 0', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await sinew(...args);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage: sinew \[options\] \[command\]/);
      expect(result.stdout).toMatch(/^ {2}eval \[options\] <model>/m);
      expect(result.stdout).toMatch(/^ {2}inspect \[options\] <file>/m);
      expect(result.stdout).toMatch(/^ {2}render \[options\] <model\.\.\.>/m);
      expect(result.stdout).toMatch(/Exit status: 0 success, 1 .*\n2 a usage error/);
    }
  });

  for (const [command, options] of [['eval', ['--clip', '--time', '--anim', '--out', '--weights', '--skinning']], ['inspect', ['--anim', '--json']],
    ['render', ['-o, --out', '--out-dir', '--format', '--anim', '--clip', '--time', '--fps', '--duration', '--turntable', '--width', '--height', '--yaw', '--pitch', '--distance', '--background']]] as const) {
    it(`${command} --help describes its options on stdout, exit 0`, async () => {
      for (const args of [[command, '--help'], ['help', command]]) {
        const result = await sinew(...args);
        expect(result.code).toBe(0);
        expect(result.stderr).toBe('');
        // inspect takes an animation file too; render many models.
        expect(result.stdout).toMatch(new RegExp(`^Usage: sinew ${command} \\[options\\] <${command === 'inspect' ? 'file' : command === 'render' ? 'model\\.\\.\\.' : 'model'}>`));
        for (const option of options) expect(result.stdout).toContain(`  ${option}`);
      }
    });
  }

  it('no command: the help on stderr, exit 2', async () => {
    const result = await sinew();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: sinew /);
  });

  it('usage mistakes exit 2 with one `sinew:` line and a --help hint', async () => {
    const cases: [string[], string][] = [
      [['paint', 'x.glb'], "sinew: unknown command 'paint'\nrun 'sinew --help' for usage\n"],
      [['render', 'x.glb'], "sinew: give either --out FILE (one model) or --out-dir FOLDER\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '--out', 'x.png', '--width', '0'], "sinew: option '--width <pixels>' argument '0' is invalid. It must be a whole number of pixels from 1 to 8192.\nrun 'sinew render --help' for usage\n"],
      [['--frobnicate'], "sinew: unknown option '--frobnicate'\nrun 'sinew --help' for usage\n"],
      [['eval'], "sinew: missing required argument 'model'\nrun 'sinew eval --help' for usage\n"],
      [['eval', 'x.glb', '--foo'], "sinew: unknown option '--foo'\nrun 'sinew eval --help' for usage\n"],
      [['eval', 'x.glb', '--time'], "sinew: option '--time <seconds>' argument missing\nrun 'sinew eval --help' for usage\n"],
      [['eval', 'x.glb', '--weights', 'sum'], "sinew: option '--weights <policy>' argument 'sum' is invalid. It must be one of normalize, as-stored, rest-remainder, implicit-last.\nrun 'sinew eval --help' for usage\n"],
      [['eval', 'x.glb', '--skinning', 'cor'], "sinew: option '--skinning <mode>' argument 'cor' is invalid. It must be one of lbs, dqs.\nrun 'sinew eval --help' for usage\n"],
      [['inspect', 'a.glb', 'b.glb'], "sinew: too many arguments for 'inspect'. Expected 1 argument but got 2.\nrun 'sinew inspect --help' for usage\n"],
    ];
    for (const [args, stderr] of cases) {
      const result = await sinew(...args);
      expect({ args, ...result }).toEqual({ args, code: 2, stdout: '', stderr });
    }
  });

  it('an unreadable model exits 1 with one line naming it', async () => {
    expect(await sinew('inspect', 'no/such/model.glb')).toEqual({ code: 1, stdout: '', stderr: 'sinew: no/such/model.glb: no such file\n' });
    const notModel = await sinew('inspect', 'notes.txt');
    expect(notModel.code).toBe(1);
    expect(notModel.stderr).toMatch(/^sinew: notes\.txt: unsupported file type "\.txt"/);
  });

  it.skipIf(!assets)('stops quietly when the reader of its output goes away (EPIPE), exit 0', async () => {
    // CesiumMan's JSON (~200 kB) is larger than a pipe's buffer, so the write is still going when the pipe closes.
    const child = spawn(process.execPath, [SINEW, 'eval', join(assets!, 'gltf', 'CesiumMan.glb')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
