/**
 * Every code a {@link LoadError} may carry, with its default meaning in one line: the registry that
 * `LoadError.code`'s type is made from, so a code that is not listed here (a typo) fails to compile. Codes
 * follow the Khronos glTF-Validator's names where one fits (its ISSUES.md), otherwise they are Sinew's own
 * (`MD5_…`, `UNSUPPORTED_FILE_TYPE`, `MEMORY_BUDGET_EXCEEDED`, `INTERNAL`, …). docs/explanation/load-errors.md lists the
 * same codes and meanings; tests/unit/loaders/load-error-codes.test.ts fails when the two differ, or when a code
 * here is used nowhere in src/.
 */
export const LOAD_ERROR_CODES = {
  // Files and I/O
  UNSUPPORTED_FILE_TYPE: 'the main file\'s extension is not one Sinew reads (.glb, .gltf, .vrm, .md5mesh)',
  FILE_NOT_FOUND: 'the model or a companion file it needs does not exist',
  IO_ERROR: 'a file exists but cannot be read (network or HTTP failure, permission, not a regular file, too large)',
  INVALID_URI: 'a uri cannot be used: an undecodable data: URI, or a companion name the node reader refuses (a scheme, an absolute path, outside the model\'s folder)',
  ANIM_NOT_APPLICABLE: 'an --anim file given on the command line is not one Sinew plays on a model (.md5anim, .glb, .gltf, .vrma)',
  INTERNAL: 'an unforeseen failure inside a loader (a bug, or a third-party library\'s error); the original is the cause',

  // GLB container
  GLB_UNEXPECTED_END_OF_HEADER: 'the GLB ends inside its 12-byte header',
  GLB_UNEXPECTED_END_OF_CHUNK_HEADER: 'the GLB ends inside a chunk header',
  GLB_INVALID_VERSION: 'the GLB header declares a version other than 2',
  GLB_LENGTH_TOO_SMALL: 'the GLB header declares fewer bytes than a header and a chunk header',
  GLB_UNEXPECTED_END_OF_CHUNK_DATA: 'the GLB is shorter than its header declares (a truncated file)',
  GLB_CHUNK_TOO_BIG: 'a GLB chunk runs past the end of the file',
  GLB_UNEXPECTED_FIRST_CHUNK: 'the GLB\'s first chunk is not JSON',

  // glTF JSON
  INVALID_JSON: 'the glTF JSON is not UTF-8, not JSON, or not an object at the top level',
  UNDEFINED_PROPERTY: 'a required property is missing',
  UNKNOWN_ASSET_MAJOR_VERSION: 'asset.version is not 2.0',
  TYPE_MISMATCH: 'a property has the wrong JSON type',
  VALUE_NOT_IN_LIST: 'a property is not one of its allowed values (an enum)',
  VALUE_NOT_IN_RANGE: 'a number is outside its allowed range',
  INVALID_INDEX: 'an index is negative or not an integer',
  UNRESOLVED_REFERENCE: 'an index names an object that does not exist',
  ONE_OF_MISMATCH: 'an object has neither of two properties it needs one of (an image without uri and bufferView)',
  UNSUPPORTED_EXTENSION: 'extensionsRequired names an extension Sinew does not support',
  TOO_MANY_NODES: 'more nodes than Sinew\'s skeleton holds (2^24)',
  NODE_LOOP: 'the node hierarchy has a cycle',
  NODE_PARENT_OVERRIDE: 'a node is the child of two parents',
  NODE_MATRIX_NON_TRS: 'a node matrix cannot be decomposed into translation, rotation and scale',
  NODE_WEIGHTS_INVALID: 'node weights are given without a mesh, or do not match its morph targets',
  ROTATION_NON_UNIT: 'a rotation has length 0 or is not finite, so it has no direction',

  // Buffers, buffer views, accessors
  BUFFER_MISSING_GLB_DATA: 'a buffer without uri and no GLB BIN chunk for it, or data read from a meshopt fallback buffer that has none',
  BUFFER_EMBEDDED_BYTELENGTH_MISMATCH: 'an embedded buffer (data: URI or BIN chunk) has fewer bytes than its byteLength',
  BUFFER_EXTERNAL_BYTELENGTH_MISMATCH: 'an external buffer file has fewer bytes than its byteLength',
  BUFFER_VIEW_TOO_LONG: 'a bufferView runs past the end of its buffer',
  ACCESSOR_TOO_LONG: 'an accessor runs past the end of its bufferView',
  ACCESSOR_SMALL_BYTESTRIDE: 'a bufferView\'s byteStride is smaller than the accessor\'s element',
  ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE: 'a sparse accessor replaces more elements than the accessor has',
  ACCESSOR_SPARSE_INDEX_OOB: 'a sparse index is past the accessor\'s elements',
  ACCESSOR_INVALID_FORMAT: 'an accessor\'s type or component type is not one its use allows',
  ACCESSOR_INVALID_FLOAT: 'an accessor holds a NaN or infinite float',
  ACCESSOR_INDEX_OOB: 'a vertex index is past the primitive\'s vertices',
  ACCESSOR_JOINTS_INDEX_OOB: 'a JOINTS_n value is past the skin\'s joints',
  ACCESSOR_WEIGHTS_NEGATIVE: 'a WEIGHTS_n value is negative',
  ACCESSOR_INDECOMPOSABLE_MATRIX: 'an inverse bind matrix is not affine (its bottom row is not 0 0 0 1)',
  MEMORY_BUDGET_EXCEEDED: 'the accessors (or compressed buffer views) decode to more bytes than the memory budget',
  WORKING_MEMORY_EXCEEDED: 'posing and skinning the model (pose kernel, per skin its palette, per skinned mesh and skin one CPU skinning kernel; instances share them) needs more bytes than the memory budget',
  COMPRESSED_DATA_INVALID: 'Draco or meshopt compressed data cannot be decoded, or decodes to something other than declared',

  // Meshes, skins, animations
  MESH_PRIMITIVE_NO_POSITION: 'a primitive has no POSITION attribute',
  MESH_PRIMITIVE_INCOMPATIBLE_MODE: 'a TRIANGLES primitive\'s vertex or index count is not a multiple of 3',
  MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT: 'a primitive\'s attributes have different element counts',
  MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT: 'a vertex attribute\'s accessor has a format its semantic does not allow',
  MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT: 'a primitive\'s indices accessor is not unsigned byte, short or int scalars',
  MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH: 'a primitive has a different number of JOINTS_n and WEIGHTS_n sets',
  MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT: 'a morph target attribute\'s count differs from POSITION\'s',
  MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT: 'the primitives of one mesh have different numbers of morph targets',
  MESH_INVALID_WEIGHTS_COUNT: 'mesh weights do not match its number of morph targets',
  SKIN_IBM_INVALID_FORMAT: 'a skin\'s inverseBindMatrices accessor is not float MAT4',
  INVALID_IBM_ACCESSOR_COUNT: 'a skin has a different number of inverse bind matrices than joints',
  ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT: 'an animation sampler\'s input is not float scalars',
  ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS: 'an animation sampler has no keys',
  ACCESSOR_ANIMATION_INPUT_NON_INCREASING: 'an animation sampler\'s key times do not increase',
  ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT: 'an animation sampler\'s output has a format its target path does not allow',
  ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT: 'an animation sampler\'s output count does not fit its input and interpolation',
  ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS: 'a channel animates the weights of a node without morph targets',

  // MD5
  MD5_ENCODING: 'an MD5 file is not ASCII or UTF-8 text',
  MD5_SYNTAX: 'an MD5 file does not follow the grammar (unexpected token, missing brace, bad number)',
  MD5_UNSUPPORTED_VERSION: 'MD5Version is not 10',
  MD5_COUNT_MISMATCH: 'an MD5 count disagrees with the entries given, or is more than the rest of the file can hold',
  MD5_INDEX_OUT_OF_RANGE: 'an MD5 index (joint, vertex, weight, mesh, frame) is past its count',
  MD5_VALUE_OUT_OF_RANGE: 'an MD5 number is outside its allowed range (a count, past float32, a frame rate that gives no increasing times)',
  MD5_JOINT_CYCLE: 'MD5 joint parents form a cycle',
  MD5_ANIM_MISMATCH: 'an .md5anim\'s joints (count, names or parents) differ from its mesh\'s',

  // VRM avatars
  HUMANOID_INVALID: 'a VRM humanoid is broken: missing, a required bone missing, one node for two bones, or a bone\'s node not in the model',

  // Clips from other files (retargeting)
  RETARGET_NO_MATCH: 'no joint of the model matches a joint of the clips\' file by name (nor by the map given)',
  RETARGET_DEGENERATE_REST_POSE: 'the hips\' rest height is 0 (or of opposite signs) in the model or the clips\' file, so no scale carries the motion over',

  // Animation graphs
  ANIMATION_GRAPH_INVALID_JSON: 'an animation graph is not JSON, or not an object with layers',
  ANIMATION_GRAPH_INVALID_VALUE: 'an animation graph property is missing, of the wrong type, or out of range (a type, predicate, point, name given twice)',
  ANIMATION_GRAPH_UNKNOWN_CLIP: 'an animation graph state or blend-tree child names a clip the model does not have',
  ANIMATION_GRAPH_UNKNOWN_PARAMETER: 'an animation graph condition or blend tree reads a parameter the graph does not define',
  ANIMATION_GRAPH_UNKNOWN_STATE: 'an animation graph transition names a state its layer does not have',

  // sinew eval
  NON_FINITE_RESULT: 'evaluating the model gives non-finite positions (sinew eval)',
} as const;

/** A {@link LoadError} code: a key of {@link LOAD_ERROR_CODES}. */
export type LoadErrorCode = keyof typeof LOAD_ERROR_CODES;
