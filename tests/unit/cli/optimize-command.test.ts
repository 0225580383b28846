import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIO } from '@gltf-transform/core';
import { createGenerated60 } from '../../fixtures/generated60.ts';
import { sinew } from './run-sinew.ts';

const folder = mkdtempSync(join(tmpdir(), 'sinew-optimize-cli-'));
const model = join(folder, 'short60.glb');
afterAll(() => rmSync(folder, { recursive: true, force: true }));
beforeAll(async () => {
  writeFileSync(model, await new NodeIO().writeBinary(createGenerated60({ seconds: 2 })));
});

/** The files in the output folder besides the model: none after a failure (no OUT, no temporary file). */
function outputs(dir = folder): string[] {
  return readdirSync(dir).filter((name) => name !== 'short60.glb' && name !== 'a-folder');
}

describe('sinew optimize', () => {
  it('prints a table per clip: keys and bytes before and after, the worst error and where; writes OUT', async () => {
    const out = join(folder, 'out.glb');
    const result = await sinew('optimize', model, '-o', out, '--max-error', '0.1mm');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^clip\s+keys before\s+keys after\s+bytes before\s+bytes after\s+max error\s+joint\s+time \(s\)$/m);
    const line = result.stdout.split('\n').find((l) => l.startsWith('Dance'))!;
    const [, keysBefore, keysAfter, , , error] = line.split(/\s{2,}/);
    expect(Number(keysBefore)).toBe(61 * 61);
    expect(Number(keysAfter)).toBeLessThan(Number(keysBefore));
    expect(Number(error.replace(' mm', ''))).toBeLessThanOrEqual(0.1);
    expect(outputs()).toEqual(['out.glb']);
    rmSync(out);
  });

  it('--json prints the same as JSON, errors in metres', async () => {
    const out = join(folder, 'out.gltf');
    const result = await sinew('optimize', model, '-o', out, '--max-error', '0.05cm', '--json', '--meshopt');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.clips).toHaveLength(1);
    expect(report.clips[0].maxError).toBeLessThanOrEqual(0.0005);
    expect(report.fileBytesAfter).toBeGreaterThan(0);
    rmSync(out);
  });

  it('an unreadable IN: one error naming it, no OUT', async () => {
    for (const input of [join(folder, 'missing.glb'), join(import.meta.dirname, 'run-sinew.ts')]) {
      const result = await sinew('optimize', input, '-o', join(folder, 'out.glb'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^sinew: ${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(outputs()).toEqual([]);
    }
  });

  for (const [value, problem] of [['abc', 'is not a length'], ['-1mm', 'is negative'], ['3in', 'unknown unit "in"'], ['', 'is not a length']]) {
    it(`--max-error ${JSON.stringify(value)}: a usage error (exit 2) saying ${problem}, no OUT`, async () => {
      const result = await sinew('optimize', model, '-o', join(folder, 'out.glb'), '--max-error', value);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(problem);
      expect(outputs()).toEqual([]);
    });
  }

  it('an unwritable OUT (a missing folder, a folder in its place): one error, no OUT and no temporary file', async () => {
    const missing = await sinew('optimize', model, '-o', join(folder, 'nowhere', 'out.glb'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`sinew: ${join(folder, 'nowhere')}: no such folder\n`);
    mkdirSync(join(folder, 'a-folder'));
    const onFolder = await sinew('optimize', model, '-o', join(folder, 'a-folder'));
    expect(onFolder.code).toBe(1);
    expect(onFolder.stderr).toMatch(/^sinew: .+\n$/);
    expect(outputs()).toEqual([]);
    rmSync(join(folder, 'a-folder'), { recursive: true });
  });

  it('a bound --quantize cannot meet (--max-error 0): one error naming the clip, joint and error, no OUT', async () => {
    const result = await sinew('optimize', model, '-o', join(folder, 'out.glb'), '--max-error', '0', '--quantize');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: clip "Dance": --quantize cannot hold --max-error 0 mm: 16-bit rotations alone move \S+ by [\d.e-]+ mm at [\d.]+ s\n$/);
    expect(outputs()).toEqual([]);
  });

  it('--max-error 0 without quantising keeps every key', async () => {
    const out = join(folder, 'exact.glb');
    const result = await sinew('optimize', model, '-o', out, '--max-error', '0', '--json');
    expect(result.code).toBe(0);
    const { clips } = JSON.parse(result.stdout);
    expect(clips[0].keysAfter).toBe(clips[0].keysBefore);
    rmSync(out);
  });
});
