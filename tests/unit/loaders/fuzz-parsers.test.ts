import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { MD5_MESH } from '../../fixtures/malformed-corpus.ts';

// Property-based fuzzing (fast-check) of the front door on mutated glTF JSON, GLB bytes and MD5 text: every
// input either loads or fails with one LoadError that names the file, says what is wrong in under 300
// characters, and is not an unforeseen failure (`INTERNAL`); none takes long. Seeded, so a CI failure
// reproduces: the report prints the seed and the shrunk input.
const SEED = 20261123;
const RUNS = 700; // per format: 2 100 inputs per run

const quad = skinnedQuad();
const gltfJson = JSON.parse(new TextDecoder().decode(quad.gltf()));
const glbBytes = quad.glb();
const md5Mesh = MD5_MESH;

async function outcome(name: string, bytes: Uint8Array): Promise<void> {
  const started = performance.now();
  try {
    await loadModel({ name, bytes }, async () => null);
  } catch (error) {
    if (!(error instanceof LoadError)) throw new Error(`not a LoadError: ${String(error)}`);
    if (error.code === 'INTERNAL') throw new Error(`unforeseen failure: ${error.message}`);
    if (error.message.length >= 300) throw new Error(`message of ${error.message.length} characters: ${error.message.slice(0, 120)}…`);
    if (!error.message.startsWith(`${error.file}:`) && !error.message.startsWith(`${error.file} `)) throw new Error(`message does not start with its file: ${error.message}`);
  }
  const ms = performance.now() - started;
  if (ms > 10_000) throw new Error(`took ${ms.toFixed(0)} ms`); // generous: a loaded 2-core machine must not flake
}

/** Every path (array of keys) to a value inside `value`. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) out.push(...paths(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
  }
  return out;
}
const jsonPaths = paths(gltfJson).filter((p) => p.length > 0);

function withValueAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if (value === undefined) delete node[path[path.length - 1]];
  else node[path[path.length - 1]] = value;
  return copy;
}

const interesting = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, -1, 0, 1, 2, 3, 255, 65535, 2 ** 31, 2 ** 32, 1e9, -1e9, 1e39, 0.5, '', 'x', [], {}, null, true),
);

describe('fuzzing the loaders (fast-check)', () => {
  it(`glTF JSON with values replaced or removed: ${RUNS} inputs`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...jsonPaths), interesting), { minLength: 1, maxLength: 3 }), async (edits) => {
        let json: unknown = gltfJson;
        for (const [path, value] of edits) {
          try {
            json = withValueAt(json, path, value);
          } catch {
            /* an earlier edit removed the parent: skip */
          }
        }
        await outcome('fuzz.gltf', new TextEncoder().encode(JSON.stringify(json)));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`GLB bytes flipped, truncated or extended: ${RUNS} inputs`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: glbBytes.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.oneof(fc.constant(glbBytes.length), fc.nat({ max: glbBytes.length + 64 })),
        async (flips, length) => {
          const bytes = new Uint8Array(length);
          bytes.set(glbBytes.subarray(0, Math.min(length, glbBytes.length)));
          for (const [at, value] of flips) if (at < length) bytes[at] = value;
          await outcome('fuzz.glb', bytes);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`MD5 text with tokens replaced, dropped or repeated: ${RUNS} inputs`, async () => {
    const tokens = md5Mesh.split(/(\s+)/);
    const replacement = fc.oneof(fc.constantFrom('', '{', '}', '(', ')', '"', '-1', '0', '1e39', '99999999', 'NaN', 'mesh', 'joints', 'vert', 'weight'), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat({ max: tokens.length - 1 }), replacement), { minLength: 1, maxLength: 4 }), async (edits) => {
        const copy = [...tokens];
        for (const [at, token] of edits) copy[at] = token;
        await outcome('fuzz.md5mesh', new TextEncoder().encode(copy.join('')));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
