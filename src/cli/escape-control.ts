const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from a model file (names, warnings, messages) made safe for a terminal: every C0 and C1 control
 * character (ESC, newline, carriage return, DEL, U+0080–U+009F, …) becomes a visible escape (`\n`, `\x1b`,
 * `\x9b`), so a hostile name can neither move the cursor, recolour the screen nor fake further lines.
 */
export function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
