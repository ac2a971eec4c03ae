/**
 * A body that is not a valid protobuf encoding of a built-in kind, or a JSON value that does not
 * fit its message type. `path` names the offending field (`spec.template.spec.containers`).
 */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
  constructor(
    message: string,
    readonly path: string = '',
  ) {
    super(path ? `${path}: ${message}` : message);
  }
}
