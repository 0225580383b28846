import { readFileSync } from 'node:fs';

/**
 * The GLB at `path` with its JSON chunk changed by `edit` (padded with spaces to 4 bytes, glTF 2.0 §4.4.3.1);
 * the BIN chunk as it was. For tests that need a variant of a shared model without committing one.
 */
export function editGlbJson(path: string, edit: (json: Record<string, any>) => void): Buffer {
  const glb = readFileSync(path);
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  edit(json);
  let chunk = Buffer.from(JSON.stringify(json), 'utf8');
  chunk = Buffer.concat([chunk, Buffer.alloc((4 - (chunk.length % 4)) % 4, 0x20)]);
  const rest = glb.subarray(20 + jsonLength);
  const header = Buffer.alloc(20);
  header.writeUInt32LE(0x46546c67, 0); // 'glTF'
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(20 + chunk.length + rest.length, 8);
  header.writeUInt32LE(chunk.length, 12);
  header.writeUInt32LE(0x4e4f534a, 16); // 'JSON'
  return Buffer.concat([header, chunk, rest]);
}
