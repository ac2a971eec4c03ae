/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema: which requests go to which priority level. Above
 * every space (cluster scope, as in Kubernetes): one set classifies the requests of every space,
 * so only system users read or change them. Kubernetes' behaviour: `pkg/apis/flowcontrol/v1/defaults.go`,
 * `pkg/apis/flowcontrol/validation/validation.go`, the FlowSchema printer of `pkg/printers/internalversion`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { described } from '../../schema/schema.js';
import { column } from '../core/table-cells.js';
import { flowSchemaSpec, flowSchemaStatus } from './schema.js';

export interface FlowSchemaSubject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { namespace?: string; name?: string };
}

export interface FlowSchemaRule {
  subjects?: FlowSchemaSubject[];
  resourceRules?: Array<{ verbs?: string[]; apiGroups?: string[]; resources?: string[]; clusterScope?: boolean; namespaces?: string[] }>;
  nonResourceRules?: Array<{ verbs?: string[]; nonResourceURLs?: string[] }>;
}

export interface FlowSchema extends KubeObject {
  spec?: {
    priorityLevelConfiguration?: { name?: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type?: string } | null;
    rules?: FlowSchemaRule[];
  };
  status?: { conditions?: Array<{ type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string }> };
}

const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
/** kube's FlowSchemaMaxMatchingPrecedence. */
const MAX_MATCHING_PRECEDENCE = 10000;

const flowSchemaSchema = defineKindSchema(
  'io.k8s.api.flowcontrol.v1.FlowSchema',
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema' },
  'Which requests belong to which priority level, and how they split into flows.',
  {
    spec: described(flowSchemaSpec, 'How requests are matched.'),
    status: described(flowSchemaStatus, 'The current state.'),
  },
);

function validateSubject(s: FlowSchemaSubject, path: string): FieldError[] {
  switch (s.kind) {
    case 'User':
      return s.user ? (s.user.name ? [] : [fieldErrors.required(`${path}.user.name`, 'username is required')]) : [fieldErrors.required(`${path}.user`, 'user is required when subject kind is \'User\'')];
    case 'Group':
      return s.group ? (s.group.name ? [] : [fieldErrors.required(`${path}.group.name`, 'name is required')]) : [fieldErrors.required(`${path}.group`, 'group is required when subject kind is \'Group\'')];
    case 'ServiceAccount': {
      if (!s.serviceAccount) return [fieldErrors.required(`${path}.serviceAccount`, 'serviceAccount is required when subject kind is \'ServiceAccount\'')];
      const errs: FieldError[] = [];
      if (!s.serviceAccount.name) errs.push(fieldErrors.required(`${path}.serviceAccount.name`, 'name is required'));
      if (!s.serviceAccount.namespace) errs.push(fieldErrors.required(`${path}.serviceAccount.namespace`, 'namespace is required'));
      return errs;
    }
    default:
      return [fieldErrors.notSupported(`${path}.kind`, s.kind ?? '', SUBJECT_KINDS)];
  }
}

function validateRule(rule: FlowSchemaRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.subjects?.length) errs.push(fieldErrors.required(`${path}.subjects`, 'subjects must contain at least one value'));
  (rule.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, `${path}.subjects[${i}]`)));
  if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) errs.push(fieldErrors.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  (rule.resourceRules ?? []).forEach((r, i) => {
    const at = `${path}.resourceRules[${i}]`;
    if (!r.verbs?.length) errs.push(fieldErrors.required(`${at}.verbs`, 'verbs must contain at least one value'));
    if (!r.apiGroups?.length) errs.push(fieldErrors.required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
    if (!r.resources?.length) errs.push(fieldErrors.required(`${at}.resources`, 'resource rules must supply at least one resource'));
    if (!r.clusterScope && !r.namespaces?.length) errs.push(fieldErrors.required(`${at}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  });
  (rule.nonResourceRules ?? []).forEach((r, i) => {
    const at = `${path}.nonResourceRules[${i}]`;
    if (!r.verbs?.length) errs.push(fieldErrors.required(`${at}.verbs`, 'verbs must contain at least one value'));
    if (!r.nonResourceURLs?.length) errs.push(fieldErrors.required(`${at}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  });
  return errs;
}

export function validateFlowSchema(obj: FlowSchema): FieldError[] {
  const spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  else if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  const method = spec.distinguisherMethod?.type;
  if (spec.distinguisherMethod && !DISTINGUISHER_METHODS.includes(method ?? '')) errs.push(fieldErrors.notSupported('spec.distinguisherMethod.type', method ?? '', DISTINGUISHER_METHODS));
  if (!spec.priorityLevelConfiguration?.name) errs.push(fieldErrors.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  (spec.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, `spec.rules[${i}]`)));
  return errs;
}

/** `True` or `False` from the Dangling condition, `?` while none is set, as kubectl shows MissingPL. */
function missingPriorityLevel(obj: FlowSchema): string {
  return obj.status?.conditions?.find((c) => c.type === 'Dangling')?.status ?? '?';
}

const columns: PrinterColumn<FlowSchema>[] = [
  nameColumn as PrinterColumn<FlowSchema>,
  column('PriorityLevel', 'string', "The priority level this schema's requests go to.", (f) => f.spec?.priorityLevelConfiguration?.name ?? ''),
  column('MatchingPrecedence', 'string', 'Lower precedence is matched first.', (f) => f.spec?.matchingPrecedence ?? 0),
  column('DistinguisherMethod', 'string', 'How requests split into flows.', (f) => f.spec?.distinguisherMethod?.type ?? '<none>'),
  ageColumn as PrinterColumn<FlowSchema>,
  column('MissingPL', 'string', 'Whether the priority level named is missing.', missingPriorityLevel),
];

export const flowSchemas = defineKind<FlowSchema>({
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'FlowSchema',
  resource: 'flowschemas',
  scope: 'cluster',
  schema: flowSchemaSchema,
  nameRule: 'path-segment',
  status: true,
  defaults: (obj) => {
    obj.spec ??= {};
    obj.spec.matchingPrecedence ??= 1000;
  },
  validate: validateFlowSchema,
  columns,
});
