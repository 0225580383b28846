import type { LoadErrorCode } from './load-error-codes.ts';
import { messageOf } from '../errors/message-of.ts';

/**
 * Why a model could not be loaded: the one error type of every Sinew loader (glTF / GLB, its resources,
 * `.md5mesh` / `.md5anim`, an anim that does not fit its mesh, a companion file that is missing, and any
 * unforeseen failure inside a loader). It names the file, the place in it and the problem, and carries a short
 * code for programs to branch on.
 *
 * `message` keeps the forms Sinew has always printed (docs/guide/cli.md):
 * - a line (`"212"`) or line and column (`"23:5"`): `Bob.md5mesh:212: weight 9 names joint 40 of 33`;
 * - a JSON pointer (`"/skins/0/joints/1"`), read as the subject of the problem:
 *   `quad.gltf: /skins/0/joints/1 is not a node (41 of 3)`;
 * - a GLB byte offset (`"byte 12"`) or no place (`null`): `cut.glb: GLB is truncated: …` (a GLB problem
 *   already says in words which part of the container it is about; the offset is for programs).
 */
export class LoadError extends Error {
  /** The file at fault, as the loader was given its name (no folders), e.g. `Fox.glb`, `Bob.md5anim`. */
  readonly file: string;
  /**
   * Where in `file`: a JSON pointer (`/meshes/0/primitives/0`), a GLB byte offset (`byte 1234`), a 1-based
   * line (`23`) or line:column (`23:5`); null when the problem concerns the whole file or is not tied to one
   * place.
   */
  readonly where: string | null;
  /**
   * Short UPPER_SNAKE code: the Khronos glTF-Validator's code where one fits (`ACCESSOR_INVALID_FLOAT`,
   * `BUFFER_VIEW_TOO_LONG`, `UNRESOLVED_REFERENCE`, `GLB_UNEXPECTED_END_OF_CHUNK_DATA`, `FILE_NOT_FOUND`, …),
   * otherwise a Sinew one (`MD5_SYNTAX`, `MD5_ANIM_MISMATCH`, `UNSUPPORTED_FILE_TYPE`, `INTERNAL`, …): one of
   * the registry LOAD_ERROR_CODES (load-error-codes.ts, listed in docs/explanation/load-errors.md).
   */
  readonly code: LoadErrorCode;
  /** The problem alone, without the file and place. */
  readonly problem: string;

  /**
   * @param options.cause the underlying error, for a wrapped failure ({@link toLoadError})
   */
  constructor(file: string, where: string | null, code: LoadErrorCode, problem: string, options?: { cause?: unknown }) {
    super(formatLoadMessage(file, where, problem), options);
    this.name = 'LoadError';
    this.file = file;
    this.where = where;
    this.code = code;
    this.problem = problem;
  }
}

/** `LoadError.message` from its parts (see {@link LoadError} for the three forms). */
function formatLoadMessage(file: string, where: string | null, problem: string): string {
  if (where === null) return `${file}: ${problem}`;
  if (/^\d+(:\d+)?$/.test(where)) return `${file}:${where}: ${problem}`;
  if (where.startsWith('/')) return `${file}: ${where} ${problem}`;
  return `${file}: ${problem}`;
}

/**
 * `error` as a LoadError about `file`: a LoadError as it is (it may name another file, e.g. a companion);
 * anything else (a JS runtime error, a third-party library's error) wrapped with code `INTERNAL`, its message
 * as the problem (less a leading `file: ` it may already carry) and the original as `cause`.
 */
export function toLoadError(file: string, error: unknown): LoadError {
  if (error instanceof LoadError) return error;
  let problem = messageOf(error);
  if (problem.startsWith(`${file}: `)) problem = problem.slice(file.length + 2);
  return new LoadError(file, null, 'INTERNAL', problem, { cause: error });
}

/** Characters of a value from a file that a message quotes at most: a hostile file must not fill the screen. */
export const QUOTE_LIMIT = 40;

/**
 * A value from a file as a message quotes it: its JSON text (`"SMOOTH"`, `5`, `{"a":1}`), cut to
 * {@link QUOTE_LIMIT} characters with its full length said (`"xxxx…" (65536 characters)`).
 */
export function quoteValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length <= QUOTE_LIMIT ? text : `${text.slice(0, QUOTE_LIMIT)}… (${text.length} characters)`;
}

/**
 * A URL, a path, or a file's reference to another file (a glTF `uri`, an MD5 image or anim name) as a message
 * quotes it: whole, as a JSON string (control characters escaped), never cut like {@link quoteValue}, since an
 * address with its end cut off cannot be looked up or compared with the one meant. The one exception is a
 * `data:` URI longer than {@link QUOTE_LIMIT}: its text is a file's contents, not an address, so it is quoted as
 * its header and its length (`"data:application/octet-stream;base64,…" (65536 characters)`).
 */
export function quoteUrl(url: string): string {
  const data = /^data:[^,]{0,200},/i.exec(url);
  if (data === null || url.length <= QUOTE_LIMIT) return JSON.stringify(url);
  return `${JSON.stringify(data[0] + '…')} (${url.length} characters)`;
}
