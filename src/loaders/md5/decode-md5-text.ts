import { LoadError } from '../load-error.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of an `.md5mesh` / `.md5anim` file, ready for the tokenizer: UTF-8 (ASCII included) with an
 * optional byte-order mark, which is dropped (editors write one; RFC 3629 §6 allows it), and line ends made
 * `\n` whether the file used `\n`, `\r\n` or a lone `\r` (line numbers in messages stay the file's).
 *
 * @param fileName names the file in errors
 * @param bytes the file's bytes
 * @throws LoadError `MD5_ENCODING` for UTF-16 (by its byte-order mark) or bytes that are not valid UTF-8
 */
export function decodeMd5Text(fileName: string, bytes: Uint8Array): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new LoadError(fileName, null, 'MD5_ENCODING', 'is UTF-16 text; MD5 files must be ASCII or UTF-8');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new LoadError(fileName, null, 'MD5_ENCODING', 'is not UTF-8 text (an MD5 file is ASCII or UTF-8)', { cause: error });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
