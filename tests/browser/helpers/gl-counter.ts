/** GL object kinds whose create/delete calls are counted. */
export const GL_OBJECT_KINDS = ['Buffer', 'VertexArray', 'Texture', 'Program', 'Shader', 'TransformFeedback', 'Framebuffer', 'Renderbuffer', 'Sampler', 'Query'] as const;
export type GlObjectKind = (typeof GL_OBJECT_KINDS)[number];

/** Counts per kind: objects created, objects deleted (each once) and still alive. */
export interface GlObjectCounts {
  created: Record<GlObjectKind, number>;
  deleted: Record<GlObjectKind, number>;
  live: Record<GlObjectKind, number>;
}

/**
 * Wraps `gl.create<Kind>` / `gl.delete<Kind>` on this context object (own properties shadowing the
 * prototype's), so every object made through it — by Sinew or by twgl.js — is tracked until deleted.
 * Returns a snapshot function and an uninstall function.
 */
export function countGlObjects(gl: WebGL2RenderingContext): { counts: () => GlObjectCounts; uninstall: () => void } {
  const zero = () => Object.fromEntries(GL_OBJECT_KINDS.map((k) => [k, 0])) as Record<GlObjectKind, number>;
  const created = zero(), deleted = zero();
  const live = new Map<GlObjectKind, Set<unknown>>(GL_OBJECT_KINDS.map((k) => [k, new Set()]));
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names: string[] = [];
  for (const kind of GL_OBJECT_KINDS) {
    const create = target[`create${kind}`], remove = target[`delete${kind}`];
    target[`create${kind}`] = function (...args: unknown[]) {
      const object = create.apply(gl, args);
      if (object) {
        created[kind]++;
        live.get(kind)!.add(object);
      }
      return object;
    };
    target[`delete${kind}`] = function (...args: unknown[]) {
      const object = args[0];
      if (object && live.get(kind)!.delete(object)) deleted[kind]++;
      return remove.apply(gl, args);
    };
    names.push(`create${kind}`, `delete${kind}`);
  }
  return {
    counts: () => ({
      created: { ...created },
      deleted: { ...deleted },
      live: Object.fromEntries(GL_OBJECT_KINDS.map((k) => [k, live.get(k)!.size])) as Record<GlObjectKind, number>,
    }),
    uninstall: () => {
      for (const name of names) delete target[name];
    },
  };
}
