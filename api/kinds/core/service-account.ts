/**
 * ServiceAccounts (core/v1): identities for pods. References to secrets keep only the name, as
 * Kubernetes strips the rest.
 */
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField } from '../../schema/core-types-ref.js';
import '../../schema/core-types.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, list } from '../../schema/schema.js';
import { column } from './table-cells.js';
import type { ServiceAccount } from './types.js';

const serviceAccountSchema = defineKindSchema(
  `${CORE_V1}ServiceAccount`,
  { group: '', version: 'v1', kind: 'ServiceAccount' },
  'An identity for processes that run in pods.',
  {
    automountServiceAccountToken: boolean('Whether pods using this account get an API token mounted; a pod may override it.'),
    imagePullSecrets: list(coreField('LocalObjectReference', 'One secret.'), 'Image pull secrets added to pods that use this account.', { listType: 'atomic' }),
    secrets: list(coreField('ObjectReference', 'One secret.'), 'Legacy: secrets holding tokens of this account.', { mergeKey: 'name', strategy: 'merge' }),
  },
);

/** Secret references are kept to their names. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((ref) => (ref.name === undefined ? {} : { name: ref.name }));
}

const serviceAccountColumns: PrinterColumn<ServiceAccount>[] = [
  nameColumn as PrinterColumn<ServiceAccount>,
  column('Secrets', 'string', 'How many secrets the account references.', (sa) => (sa.secrets ?? []).length),
  ageColumn as PrinterColumn<ServiceAccount>,
];

export const serviceAccounts = defineKind<ServiceAccount>({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  scope: 'namespace',
  shortNames: ['sa'],
  schema: serviceAccountSchema,
  returnDeletedObject: true,
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: cleanSecretReferences,
  columns: serviceAccountColumns,
  subresources: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }],
});
