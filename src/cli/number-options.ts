import { InvalidArgumentError } from 'commander';

// Commander argument parsers for numeric options: each throws InvalidArgumentError (a usage error, exit 2).

/** `--width` / `--height`: a whole number of pixels in [1, 8192]. */
export function parsePixels(value: string): number {
  const pixels = Number(value);
  if (!/^\d+$/.test(value.trim()) || pixels < 1 || pixels > 8192) throw new InvalidArgumentError('It must be a whole number of pixels from 1 to 8192.');
  return pixels;
}

/** `--yaw` / `--pitch` / `--turntable`: a finite number of degrees. */
export function parseDegrees(value: string): number {
  const degrees = Number(value);
  if (value.trim() === '' || !Number.isFinite(degrees)) throw new InvalidArgumentError('It must be a number of degrees.');
  return degrees;
}

/** `--distance`: a finite number greater than 0. */
export function parsePositive(value: string): number {
  const k = Number(value);
  if (value.trim() === '' || !Number.isFinite(k) || k <= 0) throw new InvalidArgumentError('It must be a number greater than 0.');
  return k;
}

/** `--time`: a finite number of seconds, negative allowed (it clamps to the clip's first key). */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds)) throw new InvalidArgumentError('It must be a number of seconds.');
  return seconds;
}

/** `--max-memory`: a positive whole number of MiB, returned in bytes. */
export function parseMebibytes(value: string): number {
  const mib = Number(value);
  if (!/^\d+$/.test(value.trim()) || mib < 1) throw new InvalidArgumentError('It must be a whole number of MiB, at least 1.');
  return mib * 1024 * 1024;
}
