import { describe, expect, it } from 'vitest';
import { Md5TokenReader, tokenizeMd5 } from '../../../src/loaders/md5/md5-tokenizer.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';

describe('tokenizeMd5', () => {
  it('splits punctuation glued to words, keeps quoted strings whole, and skips comments', () => {
    const text = 'joints{\n"upper arm.L"\t5(1 -2.5e1 3)// comment ( { "x"\n/* block\ncomment */}';
    const tokens = tokenizeMd5('t.md5mesh', text);
    expect(tokens.map((t) => [t.kind, t.text, t.line])).toEqual([
      ['word', 'joints', 1], ['punct', '{', 1],
      ['string', 'upper arm.L', 2], ['word', '5', 2], ['punct', '(', 2], ['word', '1', 2], ['word', '-2.5e1', 2],
      ['word', '3', 2], ['punct', ')', 2],
      ['punct', '}', 4],
    ]);
  });

  it('accepts CRLF line ends and counts lines across them', () => {
    const tokens = tokenizeMd5('t', 'a\r\n\r\nb // c\r\n"d"');
    expect(tokens.map((t) => [t.text, t.line])).toEqual([['a', 1], ['b', 3], ['d', 4]]);
  });

  it('accepts an empty string and a comment with nothing after it', () => {
    const tokens = tokenizeMd5('t', 'shader ""\n"origin" -1 //\n');
    expect(tokens.map((t) => t.text)).toEqual(['shader', '', 'origin', '-1']);
  });

  it('rejects an unterminated string with its line', () => {
    expect(() => tokenizeMd5('u.md5mesh', 'a\nshader "abc\n}')).toThrow('u.md5mesh:2: unterminated string');
  });
});

describe('Md5TokenReader', () => {
  it('reads typed values and reports the offending token line', () => {
    const r = new Md5TokenReader('r.md5anim', 'numFrames 12\nframeRate x\n');
    expect(r.readWord('key').text).toBe('numFrames');
    expect(r.readInt('numFrames', 1, 100)).toBe(12);
    r.readWord('key');
    let error: unknown;
    try { r.readFloat('frameRate'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(LoadError);
    const { file, where, code, problem, message } = error as LoadError;
    expect({ file, where, code, problem }).toEqual({ file: 'r.md5anim', where: '2', code: 'MD5_SYNTAX', problem: "frameRate must be a number, found 'x'" });
    expect(message).toBe("r.md5anim:2: frameRate must be a number, found 'x'");
  });

  it('names the last line at a premature end', () => {
    const r = new Md5TokenReader('e.md5mesh', 'a\nb\n');
    r.next('x'); r.next('x');
    expect(() => r.expectPunct('}')).toThrow("e.md5mesh:2: unexpected end of file, expected '}'");
  });
});
