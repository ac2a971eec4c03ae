/**
 * PodTemplates (core/v1): a stored pod template for others to copy. Its generation counts template
 * changes.
 */
import { defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField } from '../../schema/core-types.js';
import { defineKindSchema } from '../../schema/meta.js';
import { defaultPodTemplateSpec } from './pod-spec-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import { column, containerCells, formatLabels } from './table-cells.js';
import type { PodTemplate } from './types.js';

const podTemplateSchema = defineKindSchema(
  `${CORE_V1}PodTemplate`,
  { group: '', version: 'v1', kind: 'PodTemplate' },
  'A stored template of a pod.',
  { template: coreField('PodTemplateSpec', 'The pods this template describes.') },
);

const podTemplateColumns: PrinterColumn<PodTemplate>[] = [
  nameColumn as PrinterColumn<PodTemplate>,
  column('Containers', 'string', 'Names of the template’s containers.', (pt) => containerCells(pt.template?.spec?.containers).names),
  column('Images', 'string', 'Images of the template’s containers.', (pt) => containerCells(pt.template?.spec?.containers).images),
  column('Pod Labels', 'string', 'Labels of the pods the template describes.', (pt) => formatLabels(pt.template?.metadata?.labels)),
];

export const podTemplates = defineKind<PodTemplate>({
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  resource: 'podtemplates',
  scope: 'namespace',
  schema: podTemplateSchema,
  tracksGeneration: true,
  defaults: (pt) => defaultPodTemplateSpec((pt.template ??= {})),
  validate: (pt) => validatePodTemplateSpec(pt.template ?? {}, 'template'),
  columns: podTemplateColumns,
});
