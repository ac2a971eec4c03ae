/**
 * networking.k8s.io/v1 IngressClass: names the controller that implements a class of ingresses,
 * with optional parameters. Space-scoped (cluster-scoped in Kubernetes). Kubernetes' behaviour:
 * `pkg/apis/networking/v1/defaults.go`, `pkg/apis/networking/validation`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { define, described, enumOf, object, ref, string } from '../../schema/schema.js';
import { isDNS1123Label } from '../../validation/names.js';
import { isRecord, validateDomainPrefixedPath, validateImmutable } from '../apps/workload.js';
import { validateTypedReference } from './ingress.js';

export interface IngressClass extends KubeObject {
  spec?: {
    controller?: string;
    parameters?: { apiGroup?: string; kind?: string; name?: string; scope?: string; namespace?: string };
  };
}

const SCOPES = ['Cluster', 'Namespace'];
const MAX_CONTROLLER_LENGTH = 250;

const parameters = define(
  'io.k8s.api.networking.v1.IngressClassParametersReference',
  object(
    'The object holding a class’s parameters.',
    {
      apiGroup: string('API group of the object; the core group when unset.'),
      kind: string('Kind of the object.'),
      name: string('Name of the object.'),
      scope: enumOf('Cluster (the default) or Namespace.', SCOPES),
      namespace: string('Namespace of the object; required with scope Namespace, forbidden with Cluster.'),
    },
    { required: ['kind', 'name'] },
  ),
);

const spec = define(
  'io.k8s.api.networking.v1.IngressClassSpec',
  object('The controller of a class and its parameters.', {
    controller: string('The controller that implements the class, as a domain-prefixed path such as example.com/ingress-controller. Immutable.'),
    parameters: described(parameters, 'Extra configuration for the controller.'),
  }),
);

export const ingressClassSchema = define(
  'io.k8s.api.networking.v1.IngressClass',
  object(
    'A class of ingresses and the controller that implements it.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired state of the class.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'IngressClass' }] },
  ),
);

export function defaultIngressClass(obj: IngressClass): void {
  if (isRecord(obj.spec?.parameters)) obj.spec.parameters.scope ??= 'Cluster';
}

function validateParameters(params: NonNullable<IngressClass['spec']>['parameters']): FieldError[] {
  if (!params) return [];
  const path = 'spec.parameters';
  const errors = validateTypedReference(params, path);
  const scope = params.scope;
  if (scope == null) return [...errors, fieldErrors.required(`${path}.scope`)];
  if (!SCOPES.includes(scope)) return [...errors, fieldErrors.notSupported(`${path}.scope`, scope, SCOPES)];
  if (scope === 'Namespace') {
    if (params.namespace == null) errors.push(fieldErrors.required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errors.push(...isDNS1123Label(params.namespace).map((msg) => fieldErrors.invalid(`${path}.namespace`, params.namespace, msg)));
  } else if (params.namespace != null) {
    errors.push(fieldErrors.forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errors;
}

export function validateIngressClass(obj: IngressClass): FieldError[] {
  const controller = obj.spec?.controller ?? '';
  const errors: FieldError[] = controller.length > MAX_CONTROLLER_LENGTH ? [fieldErrors.tooLong('spec.controller', MAX_CONTROLLER_LENGTH)] : [];
  return [...errors, ...validateDomainPrefixedPath(controller, 'spec.controller'), ...validateParameters(obj.spec?.parameters)];
}

/** The PARAMETERS column: `Kind[.group]/name`. */
export function formatParameters(obj: IngressClass): string {
  const p = obj.spec?.parameters;
  if (!p) return '<none>';
  return `${p.kind ?? ''}${p.apiGroup != null ? `.${p.apiGroup}` : ''}/${p.name ?? ''}`;
}

export const ingressClasses = defineKind<IngressClass>({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  resource: 'ingressclasses',
  scope: 'space',
  schema: ingressClassSchema,
  tracksGeneration: true,
  defaults: defaultIngressClass,
  validate: validateIngressClass,
  validateUpdate: (obj, old) => validateImmutable(obj.spec?.controller, old.spec?.controller, 'spec.controller'),
  columns: [
    nameColumn,
    { name: 'Controller', type: 'string', description: 'The controller that implements the class.', priority: 0, cell: (obj) => obj.spec?.controller ?? '' },
    { name: 'Parameters', type: 'string', description: 'The object holding the class’s parameters.', priority: 0, cell: formatParameters },
    ageColumn,
  ],
});
