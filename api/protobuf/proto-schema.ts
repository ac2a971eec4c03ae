/**
 * The protobuf schema of the built-in kinds: our `.proto` files under `api/protobuf/proto`, loaded
 * once when this module is first imported (at server start), and the lookup from an object's
 * apiVersion and kind to its message type.
 *
 * Each API package declares its group (`option (kubespaces.group) = "apps";`); its last segment is
 * the version. A kind is a message with `metadata` of type ObjectMeta or ListMeta in that package,
 * plus the meta/v1 kinds Kubernetes registers in every group version.
 *
 * @example
 *   protoSchema.kindType('apps/v1', 'Deployment')?.fullName; // '.k8s.io.api.apps.v1.Deployment'
 *   protoSchema.kindType('v1', 'Status')?.fullName;          // '.k8s.io.apimachinery.pkg.apis.meta.v1.Status'
 *   protoSchema.kindType('example.com/v1', 'Widget');         // undefined: no protobuf form
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO_DIR = fileURLToPath(new URL('./proto/', import.meta.url));
const META_PACKAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1';
/** meta/v1 kinds that every group version serves (errors, watch events, delete bodies). */
const META_KINDS = ['Status', 'WatchEvent', 'DeleteOptions'] as const;
const OBJECT_METADATA = new Set([`.${META_PACKAGE}.ObjectMeta`, `.${META_PACKAGE}.ListMeta`]);

export interface ProtoSchema {
  /** The message type of `kind` in `apiVersion`, or undefined when the kind has no protobuf form. */
  kindType(apiVersion: string, kind: string): protobuf.Type | undefined;
  /** `runtime.Unknown`, the envelope after the `k8s\0` prefix. */
  readonly unknown: protobuf.Type;
  /** `meta/v1.WatchEvent`, one event of a protobuf watch stream. */
  readonly watchEvent: protobuf.Type;
}

/** Every .proto file, as its path under PROTO_DIR (the name our imports use). */
function protoFiles(): string[] {
  return readdirSync(PROTO_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto'))
    .sort();
}

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  // Our files import each other by their path under PROTO_DIR; descriptor.proto (for the
  // kubespaces options) is the copy protobufjs ships.
  const descriptorProto = createRequire(import.meta.url).resolve('protobufjs/google/protobuf/descriptor.proto');
  root.resolvePath = (_origin, target) => (target === 'google/protobuf/descriptor.proto' ? descriptorProto : join(PROTO_DIR, target));
  // keepCase: field names stay as Kubernetes spells them (`aPIGroup`, `Raw`), not camel-cased.
  root.loadSync(protoFiles(), { keepCase: true });
  root.resolveAll();
  return root;
}

function namespacesOf(ns: protobuf.NamespaceBase): protobuf.Namespace[] {
  return ns.nestedArray.filter((o): o is protobuf.Namespace => o instanceof protobuf.Namespace && !(o instanceof protobuf.Type)).flatMap((child) => [child, ...namespacesOf(child)]);
}

function isKind(type: protobuf.Type): boolean {
  const metadata = type.fields['metadata'];
  return metadata?.resolvedType instanceof protobuf.Type && OBJECT_METADATA.has(metadata.resolvedType.fullName);
}

/** apiVersion → kind → message type, for every package that names its group. */
function kindsByApiVersion(root: protobuf.Root): Map<string, Map<string, protobuf.Type>> {
  const byApiVersion = new Map<string, Map<string, protobuf.Type>>();
  for (const ns of namespacesOf(root)) {
    const group: unknown = ns.options?.['(kubespaces.group)'];
    if (typeof group !== 'string') continue;
    const apiVersion = group === '' ? ns.name : `${group}/${ns.name}`;
    const kinds = new Map<string, protobuf.Type>();
    for (const type of ns.nestedArray) if (type instanceof protobuf.Type && isKind(type)) kinds.set(type.name, type);
    byApiVersion.set(apiVersion, kinds);
  }
  return byApiVersion;
}

function loadSchema(): ProtoSchema {
  const root = loadRoot();
  const kinds = kindsByApiVersion(root);
  const metaKinds = new Map(META_KINDS.map((kind) => [kind as string, root.lookupType(`${META_PACKAGE}.${kind}`)]));
  return {
    kindType: (apiVersion, kind) => kinds.get(apiVersion)?.get(kind) ?? metaKinds.get(kind),
    unknown: root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown'),
    watchEvent: root.lookupType(`${META_PACKAGE}.WatchEvent`),
  };
}

export const protoSchema: ProtoSchema = loadSchema();
