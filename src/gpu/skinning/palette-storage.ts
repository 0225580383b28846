import type { ModelAsset } from '../../asset/model-asset.ts';
import { createPaletteBuffer, type PaletteBuffer } from './palette-buffer.ts';
import { createPaletteTexture, type PaletteTexture } from './palette-texture.ts';

/**
 * Where a model's skinning palettes go on their way to the shader, per skin: the RGBA32F texture of the texture
 * path, the uniform buffer of the ubo path (made on first use) and the packed-rows scratch every path uploads
 * from. Palettes are written before each draw that reads them, so a context restore brings back the storage's
 * size only. Freed by {@link dispose}.
 */
export class PaletteStorage {
  /** Per `asset.skins` entry: the palette texture of the texture path. */
  readonly textures: PaletteTexture[];
  /** Per `asset.skins` entry: the palette uniform buffer of the ubo path, or null until {@link buffer} makes it. */
  readonly buffers: (PaletteBuffer | null)[];
  /**
   * Per `asset.skins` entry s, `Float32Array(16·skins[s].joints.length)`: the renderer's scratch for the
   * skin's palette as the shader reads it (`packPaletteRows` for LBS, `computeDualQuaternionPalette` for
   * DQS), filled once per frame.
   */
  readonly rows: Float32Array[];
  /**
   * Per skin: the renderer frame whose palette the texture holds (scratch for the renderer, so a palette
   * shared by several instances is uploaded once per frame).
   */
  readonly frames: Float64Array;

  /** @throws Error when a texture cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, asset: ModelAsset) {
    this.textures = asset.skins.map((skin) => createPaletteTexture(gl, skin.joints.length));
    this.buffers = asset.skins.map(() => null);
    this.rows = asset.skins.map((skin) => new Float32Array(16 * skin.joints.length));
    this.frames = new Float64Array(asset.skins.length).fill(-1);
  }

  /** The uniform buffer of skin `skin`, made now (room for `capacity` joints) if it has none or one too small. */
  buffer(skin: number, capacity: number): PaletteBuffer {
    let buffer = this.buffers[skin];
    if (!buffer || buffer.capacity < capacity) {
      buffer?.dispose();
      buffer = createPaletteBuffer(this.gl, capacity);
      this.buffers[skin] = buffer;
    }
    return buffer;
  }

  /** Deletes the textures and buffers. Idempotent. */
  dispose(): void {
    for (const t of this.textures) t.storage.dispose();
    for (const b of this.buffers) b?.dispose();
    this.buffers.fill(null);
  }
}
