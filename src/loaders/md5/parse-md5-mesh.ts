import { toLoadError, quoteValue } from '../load-error.ts';
import { Md5TokenReader, describeToken } from './md5-tokenizer.ts';
import { md5QuaternionW } from './md5-quaternion.ts';
import { readMd5JointHeader } from './md5-joint-header.ts';
import { MAX_SKELETON_JOINTS } from '../../skeleton/skeleton.ts';

/** One joint of an `.md5mesh`: its bind pose in model space. */
export interface Md5Joint {
  readonly name: string;
  /** Index of the parent joint in the file's joint list, −1 for a root. */
  readonly parent: number;
  /** Model-space bind position (x, y, z), file units. */
  readonly position: readonly [number, number, number];
  /**
   * Model-space bind orientation, unit quaternion (x, y, z, w), w rebuilt by {@link md5QuaternionW}
   * (not renormalised: exactly what the file defines).
   */
  readonly orientation: readonly [number, number, number, number];
  /** 1-based line of the joint in the file, for messages. */
  readonly line: number;
}

/**
 * One `mesh { … }` block. Vertices have no position of their own (docs/explanation/skinning-formulas.md S3): vertex v uses weights
 * `weightStarts[v] … weightStarts[v] + weightCounts[v] − 1`; weight w names a joint, a bias and an offset
 * in that joint's space.
 */
export interface Md5MeshPart {
  /** The `shader` string (a material / texture path), possibly empty. */
  readonly shader: string;
  /** 1-based line of the `mesh` keyword. */
  readonly line: number;
  readonly vertexCount: number;
  /** `Float64Array(2·vertexCount)`: texture coordinates (u, v) as stored (v down, like glTF). */
  readonly uvs: Float64Array;
  /** `Int32Array(vertexCount)`: first weight of each vertex. */
  readonly weightStarts: Int32Array;
  /** `Int32Array(vertexCount)`: number of weights of each vertex (≥ 1). */
  readonly weightCounts: Int32Array;
  readonly triangleCount: number;
  /** `Uint32Array(3·triangleCount)`: vertex indices of each triangle, in file order. */
  readonly triangles: Uint32Array;
  readonly weightCount: number;
  /** `Int32Array(weightCount)`: joint of each weight, an index into {@link Md5Mesh.joints}. */
  readonly weightJoints: Int32Array;
  /** `Float64Array(weightCount)`: bias (blend weight) of each weight. */
  readonly weightBiases: Float64Array;
  /** `Float64Array(3·weightCount)`: position offset of each weight in its joint's space. */
  readonly weightOffsets: Float64Array;
}

/** A parsed `.md5mesh` (MD5Version 10): joints in file order (parents not necessarily first) and meshes. */
export interface Md5Mesh {
  readonly fileName: string;
  readonly commandline: string;
  /** `numJoints` entries. */
  readonly joints: readonly Md5Joint[];
  /** `numMeshes` entries. */
  readonly meshes: readonly Md5MeshPart[];
}

const MAX_COUNT = 0x7fffffff;

/**
 * Parses the text of an `.md5mesh` file (MD5Version 10, the Doom 3 format) and validates it: every count is
 * matched by its entries, every index is in range (vertex, triangle and weight indices, the vertices'
 * weight ranges, weight joints, joint parents), the joint hierarchy has no cycle, and each vertex has at least
 * one weight.
 *
 * @param fileName used in error messages, e.g. `Bob.md5mesh`
 * @throws LoadError `file:line: problem`, e.g. `Bob.md5mesh:212: weight 9 names joint 40 of 33`
 */
export function parseMd5Mesh(fileName: string, text: string): Md5Mesh {
  try {
    return parse(fileName, text);
  } catch (error) {
    // A failure the parser did not foresee (a JS runtime error) still names the file.
    throw toLoadError(fileName, error);
  }
}

function parse(fileName: string, text: string): Md5Mesh {
  const r = new Md5TokenReader(fileName, text);
  r.readVersionHeader();

  let commandline = '';
  let numJoints = -1;
  let numMeshes = -1;
  let joints: Md5Joint[] | null = null;
  const meshes: Md5MeshPart[] = [];

  while (!r.atEnd()) {
    const key = r.readWord('a keyword');
    switch (key.text) {
      case 'commandline':
        commandline = r.readString('commandline');
        break;
      case 'numJoints':
        if (numJoints >= 0) throw r.error('numJoints given twice', key.line);
        numJoints = r.readInt('numJoints', 0, MAX_SKELETON_JOINTS);
        break;
      case 'numMeshes':
        if (numMeshes >= 0) throw r.error('numMeshes given twice', key.line);
        numMeshes = r.readCount('numMeshes', 3); // mesh { }
        break;
      case 'joints':
        if (numJoints < 0) throw r.error("'joints' before numJoints", key.line);
        if (joints) throw r.error("second 'joints' block", key.line);
        joints = parseJoints(r, numJoints);
        break;
      case 'mesh':
        if (numJoints < 0 || numMeshes < 0) throw r.error("'mesh' before numJoints and numMeshes", key.line);
        if (meshes.length >= numMeshes) throw r.error(`mesh ${meshes.length} beyond numMeshes ${numMeshes}`, key.line, 'MD5_INDEX_OUT_OF_RANGE');
        meshes.push(parseMesh(r, key.line, numJoints));
        break;
      default:
        throw r.error(`unknown keyword ${describeToken(key)}`, key.line);
    }
  }
  if (numJoints < 0) throw r.error('numJoints missing');
  if (numMeshes < 0) throw r.error('numMeshes missing');
  if (!joints) throw r.error("'joints' block missing");
  if (meshes.length !== numMeshes) throw r.error(`found ${meshes.length} meshes, numMeshes is ${numMeshes}`, undefined, 'MD5_COUNT_MISMATCH');
  return { fileName, commandline, joints, meshes };
}

function parseJoints(r: Md5TokenReader, numJoints: number): Md5Joint[] {
  r.expectPunct('{');
  const joints: Md5Joint[] = [];
  const v = new Float64Array(3);
  const q = new Float64Array(3);
  while (!r.acceptPunct('}')) {
    const index = joints.length;
    const { name, parent, line } = readMd5JointHeader(r, index, numJoints);
    r.readVector(v, 0, 3, `position of joint ${index}`);
    r.readVector(q, 0, 3, `orientation of joint ${index}`);
    joints.push({
      name, parent, line,
      position: [v[0], v[1], v[2]],
      orientation: [q[0], q[1], q[2], md5QuaternionW(q[0], q[1], q[2])],
    });
  }
  if (joints.length !== numJoints) throw r.error(`found ${joints.length} joints, numJoints is ${numJoints}`, r.previousLine(), 'MD5_COUNT_MISMATCH');
  checkNoCycle(r, joints);
  return joints;
}

/** Throws at the first joint whose parent chain loops (a parent chain longer than the joint count). */
function checkNoCycle(r: Md5TokenReader, joints: readonly Md5Joint[]): void {
  for (let i = 0; i < joints.length; i++) {
    let p = joints[i].parent;
    for (let steps = 0; p >= 0; steps++) {
      if (steps > joints.length) throw r.error(`joint ${i} ${quoteValue(joints[i].name)} is its own ancestor (parent cycle)`, joints[i].line, 'MD5_JOINT_CYCLE');
      p = joints[p].parent;
    }
  }
}

function parseMesh(r: Md5TokenReader, meshLine: number, numJoints: number): Md5MeshPart {
  r.expectPunct('{');
  let shader = '';
  let vertexCount = -1, triangleCount = -1, weightCount = -1;
  let uvs = new Float64Array(0), weightStarts = new Int32Array(0), weightCounts = new Int32Array(0);
  let vertLines = new Int32Array(0);
  let triangles = new Uint32Array(0);
  let triSeen = new Uint8Array(0);
  let weightJoints = new Int32Array(0), weightBiases = new Float64Array(0), weightOffsets = new Float64Array(0);
  let weightSeen = new Uint8Array(0);
  let verts = 0, tris = 0, weights = 0;
  const uv = new Float64Array(2);

  while (!r.acceptPunct('}')) {
    const key = r.readWord('a mesh keyword or \'}\'');
    switch (key.text) {
      case 'shader':
        shader = r.readString('shader');
        break;
      case 'numverts':
        if (vertexCount >= 0) throw r.error('numverts given twice', key.line);
        vertexCount = r.readCount('numverts', 8); // vert i ( u v ) start count
        uvs = new Float64Array(2 * vertexCount);
        weightStarts = new Int32Array(vertexCount);
        weightCounts = new Int32Array(vertexCount).fill(-1);
        vertLines = new Int32Array(vertexCount);
        break;
      case 'vert': {
        if (vertexCount < 0) throw r.error("'vert' before numverts", key.line);
        const { value: i, line } = r.readIndex('vert index');
        if (i < 0 || i >= vertexCount) throw r.error(`vert index ${i} out of range: numverts is ${vertexCount}`, line, 'MD5_INDEX_OUT_OF_RANGE');
        if (weightCounts[i] >= 0) throw r.error(`vert ${i} given twice`, line);
        r.readVector(uv, 0, 2, `uv of vert ${i}`);
        uvs[2 * i] = uv[0];
        uvs[2 * i + 1] = uv[1];
        weightStarts[i] = r.readInt(`first weight of vert ${i}`, 0, MAX_COUNT);
        weightCounts[i] = r.readInt(`weight count of vert ${i}`, 1, MAX_COUNT);
        vertLines[i] = line;
        verts++;
        break;
      }
      case 'numtris':
        if (triangleCount >= 0) throw r.error('numtris given twice', key.line);
        triangleCount = r.readCount('numtris', 5); // tri i a b c
        triangles = new Uint32Array(3 * triangleCount);
        triSeen = new Uint8Array(triangleCount);
        break;
      case 'tri': {
        if (triangleCount < 0) throw r.error("'tri' before numtris", key.line);
        if (vertexCount < 0) throw r.error("'tri' before numverts", key.line);
        const { value: t, line } = r.readIndex('tri index');
        if (t < 0 || t >= triangleCount) throw r.error(`tri index ${t} out of range: numtris is ${triangleCount}`, line, 'MD5_INDEX_OUT_OF_RANGE');
        if (triSeen[t]) throw r.error(`tri ${t} given twice`, line);
        triSeen[t] = 1;
        for (let k = 0; k < 3; k++) {
          const { value: vi, line: viLine } = r.readIndex(`vertex ${k} of tri ${t}`);
          if (vi < 0 || vi >= vertexCount) throw r.error(`tri ${t} names vertex ${vi} of ${vertexCount}`, viLine, 'MD5_INDEX_OUT_OF_RANGE');
          triangles[3 * t + k] = vi;
        }
        tris++;
        break;
      }
      case 'numweights':
        if (weightCount >= 0) throw r.error('numweights given twice', key.line);
        weightCount = r.readCount('numweights', 8); // weight i joint bias ( x y z )
        weightJoints = new Int32Array(weightCount);
        weightBiases = new Float64Array(weightCount);
        weightOffsets = new Float64Array(3 * weightCount);
        weightSeen = new Uint8Array(weightCount);
        break;
      case 'weight': {
        if (weightCount < 0) throw r.error("'weight' before numweights", key.line);
        const { value: w, line } = r.readIndex('weight index');
        if (w < 0 || w >= weightCount) throw r.error(`weight index ${w} out of range: numweights is ${weightCount}`, line, 'MD5_INDEX_OUT_OF_RANGE');
        if (weightSeen[w]) throw r.error(`weight ${w} given twice`, line);
        weightSeen[w] = 1;
        const { value: j, line: jLine } = r.readIndex(`joint of weight ${w}`);
        if (j < 0 || j >= numJoints) throw r.error(`weight ${w} names joint ${j} of ${numJoints}`, jLine, 'MD5_INDEX_OUT_OF_RANGE');
        weightJoints[w] = j;
        weightBiases[w] = r.readFloat(`bias of weight ${w}`);
        r.readVector(weightOffsets, 3 * w, 3, `offset of weight ${w}`);
        weights++;
        break;
      }
      default:
        throw r.error(`unknown mesh keyword ${describeToken(key)}`, key.line);
    }
  }
  const endLine = r.previousLine(); // the mesh's closing brace
  if (vertexCount < 0) throw r.error(`mesh at line ${meshLine} has no numverts`, endLine);
  if (triangleCount < 0) throw r.error(`mesh at line ${meshLine} has no numtris`, endLine);
  if (weightCount < 0) throw r.error(`mesh at line ${meshLine} has no numweights`, endLine);
  if (verts !== vertexCount) throw r.error(`mesh at line ${meshLine} has ${verts} verts, numverts is ${vertexCount}`, endLine, 'MD5_COUNT_MISMATCH');
  if (tris !== triangleCount) throw r.error(`mesh at line ${meshLine} has ${tris} tris, numtris is ${triangleCount}`, endLine, 'MD5_COUNT_MISMATCH');
  if (weights !== weightCount) throw r.error(`mesh at line ${meshLine} has ${weights} weights, numweights is ${weightCount}`, endLine, 'MD5_COUNT_MISMATCH');
  for (let i = 0; i < vertexCount; i++) {
    const last = weightStarts[i] + weightCounts[i] - 1;
    if (last >= weightCount) {
      throw r.error(`vert ${i} uses weights ${weightStarts[i]}…${last} of ${weightCount}`, vertLines[i], 'MD5_INDEX_OUT_OF_RANGE');
    }
  }
  return {
    shader, line: meshLine, vertexCount, uvs, weightStarts, weightCounts, triangleCount, triangles,
    weightCount, weightJoints, weightBiases, weightOffsets,
  };
}
