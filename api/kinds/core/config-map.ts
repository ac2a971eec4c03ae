/**
 * ConfigMaps (core/v1): configuration as string values (`data`) and base64 bytes (`binaryData`),
 * keyed by file-name-like keys, together at most 1 MiB. With `immutable: true` the contents are
 * frozen for good.
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
import { byteLength } from '../../validation/names.js';
import { column } from './table-cells.js';
import type { ConfigMap } from './types.js';

/** The most a ConfigMap's or Secret's values may hold together, in bytes. */
export const MAX_DATA_SIZE = 1024 * 1024;

const IMMUTABLE_DETAIL = 'field is immutable when `immutable` is set';

const configMapSchema = defineKindSchema(
  `${CORE_V1}ConfigMap`,
  { group: '', version: 'v1', kind: 'ConfigMap' },
  'Configuration data for pods to read as files, environment variables or arguments.',
  {
    binaryData: map(bytes('Base64-encoded bytes.'), 'Binary values by key; keys may not repeat those of data.'),
    data: map(string('A value.'), 'UTF-8 values by key.'),
    immutable: boolean('When true, the data can no longer change (the object can only be deleted).'),
  },
);

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  const data = cm.data ?? {};
  const binaryData = cm.binaryData ?? {};
  for (const k of Object.keys(data).sort()) {
    const path = key('data', k);
    errs.push(...isConfigMapKey(k).map((m) => fieldErrors.invalid(path, k, m)));
    if (Object.hasOwn(binaryData, k)) errs.push(fieldErrors.invalid(path, k, 'duplicate of key present in binaryData'));
    total += byteLength(data[k]!);
  }
  for (const k of Object.keys(binaryData).sort()) {
    const path = key('binaryData', k);
    errs.push(...isConfigMapKey(k).map((m) => fieldErrors.invalid(path, k, m)));
    const size = decodedLength(binaryData[k]!);
    if (size === undefined) errs.push(fieldErrors.invalid(path, '<value omitted>', BASE64_ERROR));
    else total += size;
  }
  // An empty path: the limit is on the object as a whole.
  if (total > MAX_DATA_SIZE) errs.push(fieldErrors.tooLong('', MAX_DATA_SIZE));
  return errs;
}

function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  if (!old.immutable) return [];
  const errs: FieldError[] = [];
  if (!cm.immutable) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_DETAIL));
  if (!semanticEqual(cm.data, old.data)) errs.push(fieldErrors.forbidden('data', IMMUTABLE_DETAIL));
  if (!semanticEqual(cm.binaryData, old.binaryData)) errs.push(fieldErrors.forbidden('binaryData', IMMUTABLE_DETAIL));
  return errs;
}

const configMapColumns: PrinterColumn<ConfigMap>[] = [
  nameColumn as PrinterColumn<ConfigMap>,
  column('Data', 'string', 'How many keys the ConfigMap holds (data and binaryData).', (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length),
  ageColumn as PrinterColumn<ConfigMap>,
];

export const configMaps = defineKind<ConfigMap>({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  scope: 'namespace',
  shortNames: ['cm'],
  schema: configMapSchema,
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
  columns: configMapColumns,
});
