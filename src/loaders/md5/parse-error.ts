/**
 * A malformed MD5 file (`.md5mesh` / `.md5anim`): names the file, the 1-based line and the problem.
 * The message reads `Bob.md5mesh:212: weight 9 names joint 40 of 33` (DESIGN.md, "Resources and errors").
 */
export class ParseError extends Error {
  /** File name as given to the parser (used verbatim in the message). */
  readonly file: string;
  /** 1-based line of the offending token (the last line of the file for a premature end). */
  readonly line: number;
  /** The problem alone, without the `file:line: ` prefix. */
  readonly problem: string;

  constructor(file: string, line: number, problem: string) {
    super(`${file}:${line}: ${problem}`);
    this.name = 'ParseError';
    this.file = file;
    this.line = line;
    this.problem = problem;
  }
}
