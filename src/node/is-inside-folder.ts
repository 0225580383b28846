import { isAbsolute, relative, sep } from 'node:path';

/**
 * Node only: whether `target` lies below `folder` (both absolute, resolved). By `path.relative`, not a prefix
 * test: `folder + sep` is `//` for the root folder `/`, and `/a/bc` starts with `/a/b`.
 */
export function isInsideFolder(folder: string, target: string): boolean {
  const path = relative(folder, target);
  return path !== '' && path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}
