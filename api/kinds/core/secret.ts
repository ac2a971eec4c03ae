/**
 * Secrets (core/v1): sensitive values as base64 bytes (`data`), at most 1 MiB together. Values given
 * in plain text (`stringData`) are folded into `data` and never stored. A secret's type decides
 * which keys it must hold (`tls.crt` and `tls.key` for kubernetes.io/tls, ...) and may not change.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1 } from '../../schema/core-types-ref.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, bytes, map, string } from '../../schema/schema.js';
import { BASE64_ERROR, decodedLength } from '../../validation/base64.js';
import { isConfigMapKey } from '../../validation/config-map-key.js';
import { semanticEqual } from '../../validation/equality.js';
import { key } from '../../validation/field-path.js';
import { MAX_DATA_SIZE } from './config-map.js';
import { column } from './table-cells.js';
import type { Secret } from './types.js';

export const SECRET_TYPES = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJson: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
} as const;

/** The annotation naming the service account a token secret belongs to. */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';

const IMMUTABLE_DETAIL = 'field is immutable when `immutable` is set';
/** What is echoed in place of a secret value. */
const REDACTED = '<secret contents redacted>';

const secretSchema = defineKindSchema(
  `${CORE_V1}Secret`,
  { group: '', version: 'v1', kind: 'Secret' },
  'Sensitive data such as passwords, tokens or keys, for pods to read.',
  {
    data: map(bytes('Base64-encoded bytes.'), 'Secret values by key, base64-encoded.'),
    immutable: boolean('When true, the data can no longer change (the object can only be deleted).'),
    stringData: map(string('A value.'), 'Write-only plain-text values, merged into data (winning over it) when written.'),
    type: string('What the secret holds, which decides its required keys. Defaults to Opaque.'),
  },
);

function encodeBase64(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64');
}

function decodeBase64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

function defaultSecret(secret: Secret): void {
  secret.type ||= SECRET_TYPES.opaque;
  const plain = secret.stringData;
  if (plain === undefined) return;
  delete secret.stringData;
  if (Object.keys(plain).length === 0) return;
  secret.data = { ...secret.data };
  for (const [k, v] of Object.entries(plain)) secret.data[k] = encodeBase64(v);
}

/** The parsed JSON text, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Required errors for keys a secret of this type must hold. */
function requiredKeys(data: Readonly<Record<string, string>>, keys: readonly string[]): FieldError[] {
  return keys.filter((k) => !Object.hasOwn(data, k)).map((k) => fieldErrors.required(key('data', k)));
}

/** Docker config keys must hold a JSON object. */
function validateJsonObject(data: Readonly<Record<string, string>>, k: string): FieldError[] {
  const missing = requiredKeys(data, [k]);
  if (missing.length > 0) return missing;
  const parsed = parseJson(decodeBase64(data[k]!));
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return [];
  return [fieldErrors.invalid(key('data', k), REDACTED, 'must be a well-formed JSON object')];
}

function validateTypeKeys(secret: Secret, data: Readonly<Record<string, string>>): FieldError[] {
  switch (secret.type) {
    case SECRET_TYPES.serviceAccountToken:
      return secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION]
        ? []
        : [fieldErrors.required(key('metadata.annotations', SERVICE_ACCOUNT_NAME_ANNOTATION))];
    case SECRET_TYPES.dockercfg:
      return validateJsonObject(data, '.dockercfg');
    case SECRET_TYPES.dockerConfigJson:
      return validateJsonObject(data, '.dockerconfigjson');
    case SECRET_TYPES.basicAuth:
      // Either may be empty, but one of them must be there.
      return 'username' in data || 'password' in data ? [] : requiredKeys(data, ['username', 'password']);
    case SECRET_TYPES.sshAuth:
      return data['ssh-privatekey'] ? [] : [fieldErrors.required(key('data', 'ssh-privatekey'))];
    case SECRET_TYPES.tls:
      return requiredKeys(data, ['tls.crt', 'tls.key']);
    default:
      return [];
  }
}

function validateSecret(secret: Secret): FieldError[] {
  const errs: FieldError[] = [];
  const data = secret.data ?? {};
  let total = 0;
  for (const k of Object.keys(data).sort()) {
    const path = key('data', k);
    errs.push(...isConfigMapKey(k).map((m) => fieldErrors.invalid(path, k, m)));
    const size = decodedLength(data[k]!);
    if (size === undefined) errs.push(fieldErrors.invalid(path, REDACTED, BASE64_ERROR));
    else total += size;
  }
  if (total > MAX_DATA_SIZE) errs.push(fieldErrors.tooLong('data', MAX_DATA_SIZE));
  errs.push(...validateTypeKeys(secret, data));
  return errs;
}

function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errs: FieldError[] = [];
  if (secret.type !== old.type) errs.push(fieldErrors.immutable('type', secret.type ?? ''));
  if (old.immutable) {
    if (!secret.immutable) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_DETAIL));
    if (!semanticEqual(secret.data, old.data)) errs.push(fieldErrors.forbidden('data', IMMUTABLE_DETAIL));
  }
  return errs;
}

const secretColumns: PrinterColumn<Secret>[] = [
  nameColumn as PrinterColumn<Secret>,
  column('Type', 'string', 'What the secret holds, e.g. Opaque or kubernetes.io/tls.', (s) => s.type ?? ''),
  column('Data', 'string', 'How many keys the secret holds.', (s) => Object.keys(s.data ?? {}).length),
  ageColumn as PrinterColumn<Secret>,
];

export const secrets = defineKind<Secret>({
  group: '',
  version: 'v1',
  kind: 'Secret',
  resource: 'secrets',
  scope: 'namespace',
  schema: secretSchema,
  defaults: defaultSecret,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  columns: secretColumns,
  selectableFields: {
    type: (s) => s.type ?? '',
  },
});
