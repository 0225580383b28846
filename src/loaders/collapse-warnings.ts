/**
 * One warning per kind of deviation and file (docs/explanation/compatibility.md): warnings that differ only in their
 * numbers and quoted names (`mesh 3 primitive 0 has morph targets; ignored`, `mesh 7 primitive 1 has …`) are
 * one kind; the first stays, followed by ` (and N more like it)`. Order is kept (by each kind's first
 * occurrence). Builders that count a deviation themselves already push a single line.
 *
 * @param warnings the loader's warnings, each starting with the file name
 * @returns a new array, one line per kind
 */
export function collapseWarnings(warnings: readonly string[]): string[] {
  const kinds = new Map<string, { first: string; more: number }>();
  for (const warning of warnings) {
    const key = warning.replace(/"[^"]*"|'[^']*'/g, '"…"').replace(/\d+(\.\d+)?(e-?\d+)?/g, '#');
    const kind = kinds.get(key);
    if (kind) kind.more++;
    else kinds.set(key, { first: warning, more: 0 });
  }
  return [...kinds.values()].map(({ first, more }) => (more > 0 ? `${first} (and ${more} more like it)` : first));
}
