/** A named file's bytes: the model's main file, however it was obtained (fetch, drop, disk). */
export interface ModelFile {
  /** File name without folders (e.g. `Fox.glb`): decides the format and names the file in every message. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Reads a file the main file needs, by `name`: a glTF buffer or image uri exactly as the JSON writes it (a
 * relative reference, possibly percent-encoded, possibly with folders), or a name Sinew derives next to the
 * main file (`Bob.md5anim`, a shader's image such as `guard1_body.png`), or one of `options.anims`.
 * Resolves to null when the file does not exist (HTTP 404, not among the dropped files, no such file on disk)
 * and rejects for any other failure (a server error, a permission error), which the loader reports.
 */
export type FetchCompanion = (name: string) => Promise<Uint8Array | null>;
