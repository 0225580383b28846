/** One column of a {@link formatTable} table: its heading and which side its cells line up on. */
export interface TextColumn {
  readonly heading: string;
  /** `right` for numbers (so digits line up), `left` for text. */
  readonly align: 'left' | 'right';
}

/**
 * Lays out rows as a plain-text table for a terminal: a heading line, a rule of dashes under each heading,
 * then one line per row, columns padded to their widest cell and separated by two spaces, trailing spaces
 * trimmed. Widths count UTF-16 code units, which is right for the ASCII and Latin text models carry.
 * @param rows cells per row, as many as `columns`
 * @returns the lines joined with `\n`, no final newline
 */
export function formatTable(columns: readonly TextColumn[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, c) => Math.max(column.heading.length, ...rows.map((row) => row[c].length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, c) => (columns[c].align === 'right' ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  return [line(columns.map((column) => column.heading)), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
