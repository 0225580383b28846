import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { optimizeFile } from '../../../src/cli/optimize-command.ts';
import { carryUnknownExtensions } from '../../../src/cli/glb-json.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';

const folder = mkdtempSync(join(tmpdir(), 'sinew-optimize-vrm-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sinew optimize on a .vrm', () => {
  it('keeps the VRM extensions glTF-Transform does not model: the avatar reads back the same', async () => {
    const input = join(folder, 'avatar.vrm'), output = join(folder, 'avatar.optimized.vrm');
    writeFileSync(input, await buildAvatarVrm1());
    await optimizeFile(input, output, { maxError: 0.0001 });
    const before = await loadModelFromPath(input), after = await loadModelFromPath(output);
    expect(after.avatar).toBeTruthy();
    expect(JSON.parse(JSON.stringify(after.avatar))).toEqual(JSON.parse(JSON.stringify(before.avatar)));
    expect(after.warnings).toEqual(before.warnings);
  });

  it('carries extensions by index and names them in extensionsUsed, leaving what the output has', () => {
    const source = { extensionsUsed: ['VRMC_vrm', 'KHR_x'], extensionsRequired: ['VRMC_vrm'], extensions: { VRMC_vrm: { a: 1 }, KHR_x: { b: 1 } }, nodes: [{}, { extensions: { VRMC_node_constraint: { c: 2 } } }] };
    const out: Record<string, unknown> & { extensions?: Record<string, unknown> } = { extensionsUsed: ['KHR_x'], extensions: { KHR_x: { b: 9 } }, nodes: [{}, {}] };
    carryUnknownExtensions(source, out);
    expect(out.extensions).toEqual({ KHR_x: { b: 9 }, VRMC_vrm: { a: 1 } });
    expect(out.nodes).toEqual([{}, { extensions: { VRMC_node_constraint: { c: 2 } } }]);
    expect(out.extensionsUsed).toEqual(['KHR_x', 'VRMC_vrm', 'VRMC_node_constraint']);
    expect(out.extensionsRequired).toEqual(['VRMC_vrm']);
  });
});
