import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';

// A hostile or broken file's giant token is quoted in 40 characters, with its length, never echoed whole.
const header = 'MD5Version 10\ncommandline ""\n';

function messageOf(text: string): string {
  try {
    parseMd5Mesh('big.md5mesh', text);
  } catch (error) {
    expect(error).toBeInstanceOf(LoadError);
    return (error as LoadError).message;
  }
  throw new Error('expected a LoadError');
}

describe('MD5 messages quote at most 40 characters of a token', () => {
  it('an unknown keyword of 5 009 characters', () => {
    const keyword = `numJoints${'x'.repeat(5000)}`;
    expect(messageOf(`${header}${keyword} 3\n`)).toBe(`big.md5mesh:3: unknown keyword '${keyword.slice(0, 40)}…' (5009 characters)`);
  });

  it('a number token of 65 536 characters, and a short one quoted whole', () => {
    // Digits only: it passes the integer test and must be quoted by the range check too.
    const message = messageOf(`${header}numJoints ${'9'.repeat(65536)}\n`);
    expect(message.length).toBeLessThan(300);
    expect(message).toMatch(/^big\.md5mesh:3: numJoints must be in \[0, \d+\], found '9{40}…' \(65536 characters\)$/);
    expect(messageOf(`${header}numJoints many\n`)).toBe("big.md5mesh:3: numJoints must be an integer, found 'many'");
  });
});

describe('MD5 joint names are quoted in 40 characters', () => {
  it('a joint name of 5 000 characters beyond numJoints', () => {
    const name = 'j'.repeat(5000);
    const message = messageOf(`${header}numJoints 1\nnumMeshes 0\njoints {\n  "root" -1 ( 0 0 0 ) ( 0 0 0 )\n  "${name}" 0 ( 0 0 0 ) ( 0 0 0 )\n}\n`);
    expect(message).toBe(`big.md5mesh:7: joint 1 "${'j'.repeat(39)}… (5002 characters) beyond numJoints 1`);
  });
});

describe('MD5 numbers stay finite as float32', () => {
  it('a weight offset beyond float32 is an error at its line', () => {
    const mesh = `${header}numJoints 1\nnumMeshes 1\njoints {\n  "root" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n  numverts 1\n  vert 0 ( 0 0 ) 0 1\n  numtris 0\n  numweights 1\n  weight 0 0 1 ( 1e39 0 0 )\n}\n`;
    expect(messageOf(mesh)).toBe("big.md5mesh:13: offset of weight 0 '1e39' is beyond the float32 range (±3.4e38)");
  });
});
