import { describe, expect, it } from 'vitest';
import { decodeMd5Text } from '../../../src/loaders/md5/decode-md5-text.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';

// MD5 files as editors and exporters save them: a UTF-8 byte-order mark and any line ends are accepted;
// UTF-16 and invalid UTF-8 get one clear error.
const text = `MD5Version 10
commandline "made by hand"
numFrames 1
numJoints 1
frameRate 24
numAnimatedComponents 1
hierarchy {
  "root" -1 1 0 // Tx
}
bounds {
  ( 0 0 0 ) ( 1 1 1 )
}
baseframe {
  ( 1 2 3 ) ( 0 0 0 )
}
frame 0 { 5 }
`;
const encode = (s: string) => new TextEncoder().encode(s);

function errorOf(run: () => unknown): LoadError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LoadError);
    return error as LoadError;
  }
  throw new Error('expected a LoadError');
}

describe('decodeMd5Text', () => {
  const plain = parseMd5Anim('a.md5anim', text);
  const variants: [string, Uint8Array][] = [
    ['a UTF-8 byte-order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...encode(text)])],
    ['CRLF line ends', encode(text.replace(/\n/g, '\r\n'))],
    ['lone CR line ends', encode(text.replace(/\n/g, '\r'))],
  ];
  for (const [label, bytes] of variants) {
    it(`reads a file with ${label} as the plain file`, () => {
      expect(parseMd5Anim('a.md5anim', decodeMd5Text('a.md5anim', bytes))).toEqual(plain);
    });
  }

  it('keeps the file\'s line numbers in messages whatever its line ends', () => {
    const broken = text.replace('frameRate 24', 'frameRate x');
    for (const eol of ['\n', '\r\n', '\r']) {
      const error = errorOf(() => parseMd5Anim('a.md5anim', decodeMd5Text('a.md5anim', encode(broken.replace(/\n/g, eol)))));
      expect(error.where).toBe('5');
    }
  });

  it('refuses UTF-16 (either byte order) and bytes that are not UTF-8, naming the file', () => {
    const utf16le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    const utf16be = new Uint8Array([0xfe, 0xff, ...[...text].flatMap((c) => [0, c.charCodeAt(0)])]);
    for (const bytes of [utf16le, utf16be]) {
      const error = errorOf(() => decodeMd5Text('w.md5mesh', bytes));
      expect(error.message).toBe('w.md5mesh: is UTF-16 text; MD5 files must be ASCII or UTF-8');
      expect(error.code).toBe('MD5_ENCODING');
    }
    const latin1 = encode(text.replace('made by hand', 'made by Ren_'));
    latin1[latin1.indexOf(0x5f)] = 0xe9;
    expect(errorOf(() => decodeMd5Text('l.md5anim', latin1)).message).toBe('l.md5anim: is not UTF-8 text (an MD5 file is ASCII or UTF-8)');
  });
});

describe('MD5 frameRate', () => {
  const withRate = (rate: string, frames = 3) =>
    text.replace('numFrames 1', `numFrames ${frames}`).replace('frameRate 24', `frameRate ${rate}`)
      .replace('  ( 0 0 0 ) ( 1 1 1 )\n', '  ( 0 0 0 ) ( 1 1 1 )\n'.repeat(frames))
      .replace('frame 0 { 5 }', Array.from({ length: frames }, (_, f) => `frame ${f} { ${f} }`).join('\n'));

  it('reads an ordinary rate', () => {
    expect(parseMd5Anim('a.md5anim', withRate('30')).frameRate).toBe(30);
  });

  it('refuses a rate whose float32 key times overflow, and one past float32 itself, at the frameRate line', () => {
    for (const [rate, problem] of [['1e-40', 'gives frame 1 the key time Infinity s (float32)'], ['1e300', "'1e300' is beyond the float32 range"]]) {
      const error = errorOf(() => parseMd5Anim('a.md5anim', withRate(rate)));
      expect(error.code).toBe('MD5_VALUE_OUT_OF_RANGE');
      expect(error.where).toBe('5');
      expect(error.message).toContain(problem);
    }
  });
});
