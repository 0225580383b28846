/**
 * A file that is not there (HTTP 404/410, a development server's HTML fallback page, or a companion file that
 * was not dropped with the model), as opposed to one that could not be read. Loaders that look for optional
 * files by convention (an `.md5anim` or texture next to an `.md5mesh`) treat only this as "absent" and let
 * every other failure through.
 */
export class MissingFileError extends Error {
  override readonly name = 'MissingFileError';
}
