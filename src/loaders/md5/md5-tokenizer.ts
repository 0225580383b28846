import { LoadError, QUOTE_LIMIT } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';

/** Kind of an MD5 token: a bare word or number, a quoted string (quotes removed), or one of `( ) { }`. */
export type Md5TokenKind = 'word' | 'string' | 'punct';

/** One token with the 1-based line it starts on. */
export interface Md5Token {
  readonly kind: Md5TokenKind;
  readonly text: string;
  readonly line: number;
}

const enum Ch {
  Tab = 9, Newline = 10, Return = 13, Space = 32, Quote = 34, OpenParen = 40, CloseParen = 41,
  Slash = 47, OpenBrace = 123, CloseBrace = 125,
}

function isSpace(c: number): boolean {
  return c === Ch.Space || c === Ch.Tab || c === Ch.Newline || c === Ch.Return || c === 11 || c === 12;
}

function isPunct(c: number): boolean {
  return c === Ch.OpenParen || c === Ch.CloseParen || c === Ch.OpenBrace || c === Ch.CloseBrace;
}

/**
 * Splits MD5 text (id Tech 4 lexer rules, reduced to what MD5 files use) into tokens: `//` line comments and
 * `/* … *\/` block comments are skipped, any whitespace layout is accepted, `"…"` strings may not span lines,
 * and each of `( ) { }` is a token of its own even without surrounding spaces.
 *
 * @throws LoadError naming `fileName` and the line of an unterminated string or block comment
 */
export function tokenizeMd5(fileName: string, text: string): Md5Token[] {
  const tokens: Md5Token[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === Ch.Newline) { line++; i++; continue; }
    if (isSpace(c)) { i++; continue; }
    if (c === Ch.Slash && text.charCodeAt(i + 1) === Ch.Slash) {
      while (i < n && text.charCodeAt(i) !== Ch.Newline) i++;
      continue;
    }
    if (c === Ch.Slash && text.charCodeAt(i + 1) === 42 /* * */) {
      const startLine = line;
      i += 2;
      while (i < n && !(text.charCodeAt(i) === 42 && text.charCodeAt(i + 1) === Ch.Slash)) {
        if (text.charCodeAt(i) === Ch.Newline) line++;
        i++;
      }
      if (i >= n) throw new LoadError(fileName, String(startLine), 'MD5_SYNTAX', 'unterminated /* comment');
      i += 2;
      continue;
    }
    if (isPunct(c)) {
      tokens.push({ kind: 'punct', text: text[i], line });
      i++;
      continue;
    }
    if (c === Ch.Quote) {
      const start = i + 1;
      let j = start;
      while (j < n && text.charCodeAt(j) !== Ch.Quote && text.charCodeAt(j) !== Ch.Newline) j++;
      if (j >= n || text.charCodeAt(j) !== Ch.Quote) throw new LoadError(fileName, String(line), 'MD5_SYNTAX', 'unterminated string');
      tokens.push({ kind: 'string', text: text.slice(start, j), line });
      i = j + 1;
      continue;
    }
    const start = i;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (isSpace(d) || isPunct(d) || d === Ch.Quote) break;
      if (d === Ch.Slash && (text.charCodeAt(i + 1) === Ch.Slash || text.charCodeAt(i + 1) === 42)) break;
      i++;
    }
    tokens.push({ kind: 'word', text: text.slice(start, i), line });
  }
  return tokens;
}

const INTEGER = /^[+-]?\d+$/;

/** Token counts above this must fit in the rest of the file before arrays are sized by them (Md5TokenReader.readCount). */
const LARGE_COUNT = 65536;

/**
 * A cursor over MD5 tokens with typed reads; every failed read throws a {@link LoadError} naming the file and
 * the line of the token at fault (or the file's last line at a premature end).
 */
export class Md5TokenReader {
  readonly fileName: string;
  private readonly tokens: Md5Token[];
  private position = 0;
  private readonly lastLine: number;

  constructor(fileName: string, text: string) {
    this.fileName = fileName;
    this.tokens = tokenizeMd5(fileName, text);
    let lines = 1;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === Ch.Newline) lines++;
    // A final newline does not start a line of its own.
    this.lastLine = text.endsWith('\n') ? Math.max(1, lines - 1) : lines;
  }

  /** True when every token has been read. */
  atEnd(): boolean {
    return this.position >= this.tokens.length;
  }

  /** The next token without consuming it, or null at the end. */
  peek(): Md5Token | null {
    return this.position < this.tokens.length ? this.tokens[this.position] : null;
  }

  /** Line of the next token, or of the file's end. */
  line(): number {
    const t = this.peek();
    return t ? t.line : this.lastLine;
  }

  /** Line of the token consumed last (e.g. a block's closing brace), or 1 before any. */
  previousLine(): number {
    return this.position > 0 ? this.tokens[this.position - 1].line : 1;
  }

  /**
   * A LoadError at `line` (default: the next token's line), `where` being that line.
   * @param code `MD5_SYNTAX` (default: a token or keyword that does not belong there, a premature end) or a
   *   more specific one: `MD5_INDEX_OUT_OF_RANGE` (an index past its count), `MD5_COUNT_MISMATCH` (a count that
   *   disagrees with the entries given), `MD5_VALUE_OUT_OF_RANGE`, `MD5_JOINT_CYCLE`, `MD5_UNSUPPORTED_VERSION`
   */
  error(problem: string, line = this.line(), code: LoadErrorCode = 'MD5_SYNTAX'): LoadError {
    return new LoadError(this.fileName, String(line), code, problem);
  }

  /** Consumes and returns the next token. @throws LoadError `unexpected end of file, expected <expected>` */
  next(expected: string): Md5Token {
    const t = this.peek();
    if (!t) throw this.error(`unexpected end of file, expected ${expected}`);
    this.position++;
    return t;
  }

  /** Consumes one of `( ) { }`. */
  expectPunct(p: '(' | ')' | '{' | '}'): void {
    const t = this.next(`'${p}'`);
    if (t.kind !== 'punct' || t.text !== p) throw this.error(`expected '${p}', found ${describeToken(t)}`, t.line);
  }

  /** Consumes the next token if it is the punctuation `p`; returns whether it did. */
  acceptPunct(p: '(' | ')' | '{' | '}'): boolean {
    const t = this.peek();
    if (t && t.kind === 'punct' && t.text === p) { this.position++; return true; }
    return false;
  }

  /** Consumes a bare word (keyword) and returns it. */
  readWord(what: string): Md5Token {
    const t = this.next(what);
    if (t.kind !== 'word') throw this.error(`expected ${what}, found ${describeToken(t)}`, t.line);
    return t;
  }

  /** Consumes a quoted string and returns its contents. */
  readString(what: string): string {
    const t = this.next(what);
    if (t.kind !== 'string') throw this.error(`expected ${what} as a quoted string, found ${describeToken(t)}`, t.line);
    return t.text;
  }

  /**
   * Consumes a decimal integer in [min, max].
   * @throws LoadError `<what> must be an integer in [min, max], found <token>` (or `…must be an integer…`)
   */
  readInt(what: string, min: number, max: number): number {
    const t = this.next(what);
    if (t.kind !== 'word' || !INTEGER.test(t.text)) throw this.error(`${what} must be an integer, found ${describeToken(t)}`, t.line);
    const v = Number(t.text);
    if (v < min || v > max) {
      // A short number reads best bare; a long one (digits only pass INTEGER) is cut like any token.
      const found = t.text.length <= QUOTE_LIMIT ? t.text : describeToken(t);
      throw this.error(`${what} must be in [${min}, ${max}], found ${found}`, t.line, 'MD5_VALUE_OUT_OF_RANGE');
    }
    return v;
  }

  /**
   * Reads the `MD5Version 10` line every MD5 file starts with.
   * @throws LoadError for another first word or another version
   */
  readVersionHeader(): void {
    const version = this.readWord("'MD5Version'");
    if (version.text !== 'MD5Version') throw this.error(`expected 'MD5Version', found ${describeToken(version)}`, version.line);
    const line = this.line();
    const v = this.readInt('MD5Version', 0, Number.MAX_SAFE_INTEGER);
    if (v !== 10) throw this.error(`MD5Version ${v} is not supported (only 10)`, line, 'MD5_UNSUPPORTED_VERSION');
  }

  /**
   * Reads a header count (`numverts`, `numFrames`, …) that sizes arrays: an integer ≥ `min` whose entries, each at
   * least `tokensPerEntry` tokens, must fit in the rest of the file once they need more than 65 536 tokens. A corrupt count therefore
   * fails here, naming the line, instead of allocating gigabytes.
   * @throws LoadError when it is not an integer, is below `min`, or cannot fit
   */
  readCount(what: string, tokensPerEntry: number, min = 0): number {
    const line = this.line();
    const value = this.readInt(what, min, Number.MAX_SAFE_INTEGER);
    const remaining = this.tokens.length - this.position;
    // Small overcounts are left to fail where the entries actually run out (a truncated file then points at
    // its last line); only counts too large to allocate lightly are refused up front.
    const tokensNeeded = value * Math.max(1, tokensPerEntry);
    if (tokensNeeded > LARGE_COUNT && tokensNeeded > remaining) {
      throw this.error(`${what} ${value} is more than the rest of the file can hold (${remaining} tokens left)`, line, 'MD5_COUNT_MISMATCH');
    }
    return value;
  }

  /**
   * Refuses to size an array by `tokensNeeded` (a product of header counts) when that many tokens cannot follow:
   * counts checked one by one (readCount) may still multiply to gigabytes, whatever order the header gave them in.
   * @throws LoadError `MD5_COUNT_MISMATCH` at `line` when more than 65 536 tokens are needed and fewer are left
   */
  requireTokens(what: string, tokensNeeded: number, line: number): void {
    const remaining = this.tokens.length - this.position;
    if (tokensNeeded > LARGE_COUNT && tokensNeeded > remaining) {
      throw this.error(`${what} need ${tokensNeeded} numbers, more than the rest of the file holds (${remaining} tokens left)`, line, 'MD5_COUNT_MISMATCH');
    }
  }

  /** Consumes a decimal integer of any size (range checks are the caller's) and returns it with its token. */
  readIndex(what: string): { value: number; line: number } {
    const t = this.next(what);
    if (t.kind !== 'word' || !INTEGER.test(t.text)) throw this.error(`${what} must be an integer, found ${describeToken(t)}`, t.line);
    return { value: Number(t.text), line: t.line };
  }

  /**
   * Consumes a decimal number that is finite also as a float32 (every MD5 number ends up in a Float32Array: a
   * value past ±3.4·10³⁸ would become ∞ there and poison every vertex it touches).
   * @throws LoadError `<what> must be a number, found <token>`, or `MD5_VALUE_OUT_OF_RANGE` past float32's range
   */
  readFloat(what: string): number {
    const t = this.next(what);
    const v = t.kind === 'word' ? Number(t.text) : NaN;
    if (!Number.isFinite(v) || t.text.length === 0) throw this.error(`${what} must be a number, found ${describeToken(t)}`, t.line);
    if (!Number.isFinite(Math.fround(v))) {
      throw this.error(`${what} ${describeToken(t)} is beyond the float32 range (±3.4e38)`, t.line, 'MD5_VALUE_OUT_OF_RANGE');
    }
    return v;
  }

  /** Consumes `( a b … )` with `count` numbers into `out` at `offset`. */
  readVector(out: Float64Array, offset: number, count: number, what: string): void {
    this.expectPunct('(');
    for (let i = 0; i < count; i++) out[offset + i] = this.readFloat(what);
    this.expectPunct(')');
  }
}

/**
 * A token as messages quote it: `'word'` or `"string"`, cut to {@link QUOTE_LIMIT} characters with its full
 * length said (`'numJointsxxx…' (5009 characters)`).
 */
export function describeToken(t: Md5Token): string {
  const [open, close] = t.kind === 'string' ? ['"', '"'] : ["'", "'"];
  if (t.text.length <= QUOTE_LIMIT) return `${open}${t.text}${close}`;
  return `${open}${t.text.slice(0, QUOTE_LIMIT)}…${close} (${t.text.length} characters)`;
}
