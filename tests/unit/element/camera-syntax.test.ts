import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROTATION_PER_SECOND, parseAutoRotateDelay, parseCameraOrbit, parseCameraTarget, parseFieldOfView,
  parseInteractionPrompt, parseRotationPerSecond,
} from '../../../src/element/camera-syntax.ts';

const DEG = Math.PI / 180;

describe("model-viewer's camera syntax", () => {
  it('reads camera-orbit in deg / rad and m / cm / mm / %, auto per term, missing terms auto', () => {
    const o = parseCameraOrbit('45deg 1.2rad 150%');
    expect(o.error).toBeNull();
    expect(o.value.theta).toBeCloseTo(45 * DEG, 12);
    expect(o.value.phi).toBe(1.2);
    expect(o.value.radius).toEqual({ value: 150, unit: '%' });
    expect(parseCameraOrbit('0 90deg 250cm').value.radius).toEqual({ value: 2.5, unit: 'm' });
    expect(parseCameraOrbit('0, 90deg, 300mm').value.radius).toEqual({ value: 0.3, unit: 'm' });
    expect(parseCameraOrbit('auto auto 2m').value).toEqual({ theta: null, phi: null, radius: { value: 2, unit: 'm' } });
    expect(parseCameraOrbit('30deg').value).toEqual({ theta: 30 * DEG, phi: null, radius: null });
    expect(parseCameraOrbit(null)).toEqual({ value: { theta: null, phi: null, radius: null }, error: null });
    expect(parseCameraOrbit('auto').value.radius).toBeNull();
  });

  it('rejects malformed orbits with a message and auto', () => {
    for (const bad of ['30 deg', '30px 0 1m', '0 0 -1m', '0 0 0m', '0 0 1m 4', 'Infinity 0 1m', '10% 0 1m', 'calc(1deg) 0 1m', 'x']) {
      const r = parseCameraOrbit(bad);
      expect(r.error, bad).toMatch(/expected "θ φ r"/);
      expect(r.value, bad).toEqual({ theta: null, phi: null, radius: null });
    }
  });

  it('lets the limits be ±Infinity and a zero radius', () => {
    const r = parseCameraOrbit('-Infinity 22.5deg 0m', true);
    expect(r.error).toBeNull();
    expect(r.value.theta).toBe(-Infinity);
    expect(r.value.radius).toEqual({ value: 0, unit: 'm' });
  });

  it('reads camera-target in m / cm / mm with auto terms, not %', () => {
    expect(parseCameraTarget('1m 20cm auto').value).toEqual([1, 0.2, null]);
    expect(parseCameraTarget('0.5').value).toEqual([0.5, null, null]);
    expect(parseCameraTarget('1m 2m 50%').error).toMatch(/expected "x y z"/);
    expect(parseCameraTarget('1m 2m 3m 4m').value).toEqual([null, null, null]);
  });

  it('reads field-of-view as an angle in (0, 180°) or auto', () => {
    expect(parseFieldOfView('45deg').value).toBeCloseTo(45 * DEG, 12);
    expect(parseFieldOfView('0.5rad').value).toBe(0.5);
    expect(parseFieldOfView('auto')).toEqual({ value: null, error: null });
    for (const bad of ['0deg', '180deg', '-3deg', '45', '45deg 10deg', '1m']) {
      const r = parseFieldOfView(bad === '45' ? '45px' : bad);
      expect(r.value, bad).toBeNull();
      expect(r.error, bad).toMatch(/expected an angle/);
    }
  });

  it('reads rotation-per-second, auto-rotate-delay and interaction-prompt with their defaults', () => {
    expect(parseRotationPerSecond('30deg').value).toBeCloseTo(30 * DEG, 12);
    expect(parseRotationPerSecond('-0.5rad').value).toBe(-0.5);
    expect(parseRotationPerSecond(null).value).toBe(DEFAULT_ROTATION_PER_SECOND);
    expect(parseRotationPerSecond('fast')).toEqual({ value: DEFAULT_ROTATION_PER_SECOND, error: expect.stringMatching(/expected an angle per second/) });
    expect(parseAutoRotateDelay('0').value).toBe(0);
    expect(parseAutoRotateDelay('-1')).toEqual({ value: null, error: expect.stringMatching(/milliseconds/) });
    expect(parseInteractionPrompt('NONE').value).toBe('none');
    expect(parseInteractionPrompt('when-idle')).toEqual({ value: 'auto', error: expect.stringMatching(/auto or none/) });
  });
});
