/** Metres per second: the fastest the input drives (the Drive graph's Run point, `RUN_SPEED`). */
export const DRIVE_MAX_SPEED = 3.5;
/** Radians per second of turn at full steer. */
export const DRIVE_TURN_RATE = 1.6;
/** Metres per second per second: how fast a held ↑ raises the cruise speed, and a held ↓ lowers it. */
const SPEED_UP = 1.5, SLOW_DOWN = 3;
/** Seconds: the time constant of the speed's smoothing toward the cruise speed. */
const SMOOTHING = 0.25;
/** The stick's dead zone (its tilt, 0–1). */
const DEAD_ZONE = 0.15;

/** What {@link DriveInput.read} gives each frame. */
export interface DriveCommand {
  /** Metres per second, smoothed: the graph's `speed`. */
  speed: number;
  /** Radians per second, positive turning left (toward the character's +X from +Z): the graph's `turn`. */
  turn: number;
  /** A jump was asked for since the last read (a key press or the button going down). */
  jump: boolean;
}

/**
 * The Drive panel's input: the keyboard (↑ / ↓ raise and lower a cruise speed while held, ← / → turn, J jumps —
 * keys the viewer's shortcuts leave free) and the first connected gamepad (Gamepad API, polled at each read: the
 * left stick's forward tilt sets the speed up to {@link DRIVE_MAX_SPEED} and its sideways tilt the turn, button 0
 * jumps). The speed follows the cruise speed smoothed (time constant 0.25 s). Keys are held from keydown to keyup;
 * losing the window's focus lets go of them. Allocates nothing per read.
 */
export class DriveInput {
  private readonly held = new Set<string>();
  private cruise = 0;
  private jumpAsked = false;
  private padJump = false;
  private readonly command: DriveCommand = { speed: 0, turn: 0, jump: false };

  /** Holds `key` (`KeyboardEvent.code`: `ArrowUp`, `ArrowDown`, `ArrowLeft`, `ArrowRight`). */
  press(code: string): void {
    this.held.add(code);
  }

  /** Lets go of `key`. */
  release(code: string): void {
    this.held.delete(code);
  }

  /** Lets go of every key (the window lost focus). */
  releaseAll(): void {
    this.held.clear();
  }

  /** Asks for one jump, taken by the next {@link read}. */
  jump(): void {
    this.jumpAsked = true;
  }

  /** Back to standing: no cruise speed, no keys held, no jump asked. */
  reset(): void {
    this.held.clear();
    this.cruise = 0;
    this.jumpAsked = false;
    this.command.speed = 0;
    this.command.turn = 0;
    this.command.jump = false;
  }

  /**
   * The command for a frame of `dt` seconds (the same object each call, rewritten).
   * @param pad the gamepad to read (`navigator.getGamepads()`'s first), or null
   */
  read(dt: number, pad: Gamepad | null): DriveCommand {
    const held = this.held;
    this.cruise += ((held.has('ArrowUp') ? SPEED_UP : 0) - (held.has('ArrowDown') ? SLOW_DOWN : 0)) * dt;
    let steer = (held.has('ArrowLeft') ? 1 : 0) - (held.has('ArrowRight') ? 1 : 0);
    let jump = this.jumpAsked;
    if (pad) {
      const x = pad.axes[0] ?? 0, y = pad.axes[1] ?? 0;
      if (Math.hypot(x, y) > DEAD_ZONE) {
        this.cruise = Math.max(0, -y) * DRIVE_MAX_SPEED;
        steer = -x;
      }
      const pressed = pad.buttons[0]?.pressed === true;
      if (pressed && !this.padJump) jump = true;
      this.padJump = pressed;
    }
    this.cruise = Math.min(DRIVE_MAX_SPEED, Math.max(0, this.cruise));
    const c = this.command;
    c.speed += (this.cruise - c.speed) * Math.min(1, dt / SMOOTHING);
    c.turn = steer * DRIVE_TURN_RATE;
    c.jump = jump;
    this.jumpAsked = false;
    return c;
  }
}
