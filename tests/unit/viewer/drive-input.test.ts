import { describe, expect, it } from 'vitest';
import { DRIVE_MAX_SPEED, DRIVE_TURN_RATE, DriveInput } from '../../../src/viewer/drive-input.ts';

// The Drive folder's input: held ↑ raises a cruise speed (1.5 m/s per second) that the speed follows with a
// 0.25 s time constant, ↓ lowers it, the arrows turn at the turn rate, J and a gamepad button's press jump once, a
// stick sets the speed and the turn directly.

const DT = 1 / 60;
const pad = (x: number, y: number, pressed = false): Gamepad => ({ axes: [x, y], buttons: [{ pressed }] }) as unknown as Gamepad;

describe('DriveInput', () => {
  it('raises the cruise speed while ↑ is held, holds it when let go, lowers it with ↓, within [0, max]', () => {
    const input = new DriveInput();
    input.press('ArrowUp');
    for (let f = 0; f < 60; f++) input.read(DT, null);
    input.release('ArrowUp');
    // After 1 s the cruise speed is 1.5; the speed, smoothed, trails it: c(t) = 1.5t filtered by τ = 0.25 s.
    const trailing = input.read(0, null).speed;
    expect(trailing).toBeGreaterThan(1.5 - 0.25 * 1.5 - 0.05);
    expect(trailing).toBeLessThan(1.5);
    let speed = 0;
    for (let f = 0; f < 120; f++) speed = input.read(DT, null).speed;
    expect(speed).toBeCloseTo(1.5, 3);
    input.press('ArrowDown');
    for (let f = 0; f < 240; f++) speed = input.read(DT, null).speed;
    expect(speed).toBeCloseTo(0, 3);
    input.release('ArrowDown');
    input.press('ArrowUp');
    for (let f = 0; f < 600; f++) speed = input.read(DT, null).speed;
    expect(speed).toBeCloseTo(DRIVE_MAX_SPEED, 3);
  });

  it('turns left with ←, right with →, and not when let go or after losing focus', () => {
    const input = new DriveInput();
    input.press('ArrowLeft');
    expect(input.read(DT, null).turn).toBe(DRIVE_TURN_RATE);
    input.press('ArrowRight');
    expect(input.read(DT, null).turn).toBe(0);
    input.release('ArrowLeft');
    expect(input.read(DT, null).turn).toBe(-DRIVE_TURN_RATE);
    input.releaseAll();
    expect(input.read(DT, null).turn).toBe(0);
  });

  it('jumps once per ask and once per button press', () => {
    const input = new DriveInput();
    input.jump();
    expect(input.read(DT, null).jump).toBe(true);
    expect(input.read(DT, null).jump).toBe(false);
    expect(input.read(DT, pad(0, 0, true)).jump).toBe(true);
    expect(input.read(DT, pad(0, 0, true)).jump).toBe(false);
    expect(input.read(DT, pad(0, 0, false)).jump).toBe(false);
    expect(input.read(DT, pad(0, 0, true)).jump).toBe(true);
  });

  it('takes the speed from the stick tilted forward and the turn from its sideways tilt, past a dead zone', () => {
    const input = new DriveInput();
    let command = input.read(DT, pad(0.05, -0.05));
    expect([command.speed, command.turn]).toEqual([0, 0]);
    for (let f = 0; f < 240; f++) command = input.read(DT, pad(-0.5, -1));
    expect(command.speed).toBeCloseTo(DRIVE_MAX_SPEED, 3);
    expect(command.turn).toBeCloseTo(0.5 * DRIVE_TURN_RATE, 9);
    for (let f = 0; f < 240; f++) command = input.read(DT, pad(0, 0.8));
    expect(command.speed).toBeCloseTo(0, 3);
  });
});
