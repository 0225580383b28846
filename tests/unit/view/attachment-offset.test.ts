import { describe, expect, it } from 'vitest';
import { offsetFromNumbers, parseAttachmentOffset } from '../../../src/view/attachment-offset.ts';

/** Column-major 4×4 product a·b, plain arrays. */
function mul(a: number[], b: number[]): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return out;
}
const rx = (d: number) => { const c = Math.cos(d * Math.PI / 180), s = Math.sin(d * Math.PI / 180); return [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]; };
const ry = (d: number) => { const c = Math.cos(d * Math.PI / 180), s = Math.sin(d * Math.PI / 180); return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]; };
const rz = (d: number) => { const c = Math.cos(d * Math.PI / 180), s = Math.sin(d * Math.PI / 180); return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; };

function close(got: ArrayLike<number>, want: number[]): void {
  expect(got.length).toBe(16);
  for (let k = 0; k < 16; k++) expect(Math.abs(got[k] - want[k]), `element ${k}: ${Array.from(got)} vs ${want}`).toBeLessThan(1e-12);
}

describe('parseAttachmentOffset', () => {
  it('is T · Rz · Ry · Rx · S, translation in metres (m, cm, mm), angles in degrees (deg, rad)', () => {
    const T = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, -0.02, 0.003, 1];
    const S = [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1];
    const want = mul(T, mul(rz(30), mul(ry(-45), mul(rx(90), S))));
    close(parseAttachmentOffset('0.1 -2cm 3mm', '90 -45deg 30', '2 3 4'), want);
    close(parseAttachmentOffset('0.1m, -0.02, 0.003', `${Math.PI / 2}rad -45 ${Math.PI / 6}rad`, '2, 3, 4'), want);
    close(parseAttachmentOffset(null, null, '2'), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]);
    close(parseAttachmentOffset(''), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('takes 16 numbers as a column-major matrix', () => {
    const m = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1];
    close(parseAttachmentOffset(m.join(' ')), m);
  });

  it('names the attribute and the problem', () => {
    expect(() => parseAttachmentOffset('1 2')).toThrow('offset: expected "x y z" in metres or 16 numbers, got 2 numbers');
    expect(() => parseAttachmentOffset('1 2 3ft')).toThrow('offset: "3ft" is not a number (units: m, cm, mm)');
    expect(() => parseAttachmentOffset(null, '1 2')).toThrow('offset-rotation: expected "x y z" in degrees, got 2 numbers');
    expect(() => parseAttachmentOffset(null, null, '1 2')).toThrow('offset-scale: expected one number or "x y z", got 2 numbers');
    expect(() => parseAttachmentOffset(Array(16).fill(0).join(' '))).toThrow(/last row/);
    expect(() => parseAttachmentOffset([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1].join(' '), '0 0 90')).toThrow(/takes no offset-rotation/);
  });
});

describe('offsetFromNumbers', () => {
  it('3 numbers: a translation; 16: a matrix; else an error', () => {
    close(offsetFromNumbers([1, 2, 3]), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]);
    close(offsetFromNumbers(undefined), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(() => offsetFromNumbers([1, 2])).toThrow('offset: expected 3 numbers (a translation in metres) or 16 (a column-major matrix), got 2');
    expect(() => offsetFromNumbers([1, NaN, 2])).toThrow('offset: expected finite numbers');
  });
});
