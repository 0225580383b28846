import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeControl } from '../../../src/cli/escape-control.ts';
import { formatInspection } from '../../../src/cli/format-inspection.ts';
import { inspectModelFile } from '../../../src/cli/inspect-model.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

// `sinew inspect` on files made to break it: a primitive the loader skips still gets its row, and a name
// that carries terminal control sequences is printed escaped.
const folder = mkdtempSync(join(tmpdir(), 'sinew-inspect-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sinew inspect on hostile files', () => {
  it('a POINTS primitive without POSITION: vertexCount 0, no crash', async () => {
    const builder = skinnedQuad();
    builder.json.meshes[0].primitives.push({ mode: 0, attributes: {} });
    writeFileSync(join(folder, 'points.gltf'), builder.gltf());
    const report = await inspectModelFile(join(folder, 'points.gltf'));
    expect(report.meshes[0].primitives[1]).toMatchObject({ mode: 'POINTS', vertexCount: 0, indexCount: null, triangleCount: 0 });
  });

  it('names with ESC, newlines and C1 controls are escaped in the text report', async () => {
    const builder = skinnedQuad();
    const hostile = 'a\u001b[2J\nfake line\r\u009b31m\u007f';
    builder.json.meshes[0].name = hostile;
    builder.json.animations[0].name = hostile;
    writeFileSync(join(folder, 'names.gltf'), builder.gltf());
    const report = await inspectModelFile(join(folder, 'names.gltf'));
    expect(report.meshes[0].name).toBe(hostile); // JSON keeps the exact text
    const text = formatInspection(report);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).not.toContain('\nfake line');
    expect(text).toContain('a\\x1b[2J\\nfake line\\r\\x9b31m\\x7f');
  });

  it('escapeControl leaves printable text alone', () => {
    expect(escapeControl('Fox «ü» 🦊 \\n')).toBe('Fox «ü» 🦊 \\n');
    expect(escapeControl('\t\u0000')).toBe('\\t\\x00');
  });
});
