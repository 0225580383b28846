/**
 * A failure in the words of the rest of Sinew's messages (`path: problem`): node's I/O errors read
 * `ENOENT: no such file or directory, open 'x'`; loader errors already name their file.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, path } = error as NodeJS.ErrnoException;
  if (path !== undefined) {
    switch (code) {
      case 'ENOENT': return `${path}: no such file`;
      case 'EISDIR': return `${path}: is a folder, not a file`;
      case 'ENOTDIR': return `${path}: a folder in the path is a file`;
      case 'EACCES':
      case 'EPERM': return `${path}: permission denied`;
    }
  }
  return error.message;
}
