/**
 * What admission policies (ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings)
 * share: the types and OpenAPI schemas of `k8s.io/api/admissionregistration/v1` (`types.go`),
 * and the defaults kube-apiserver gives them (`pkg/apis/admissionregistration/v1/defaults.go`:
 * failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors, scope `*`).
 */
import type { KubeObject } from '../../registry/object.js';
import { metaRef } from '../../schema/meta.js';
import { define, described, int64, list, object, string, type Schema } from '../../schema/schema.js';
import type { LabelSelector } from '../../validation/label-selector.js';

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface NamedRuleWithOperations {
  resourceNames?: string[];
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

export interface MatchCondition {
  name?: string;
  expression?: string;
}

export interface Variable {
  name?: string;
  expression?: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

export interface PolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: Array<{ fieldRef: string; warning: string }> };
  conditions?: unknown[];
}

/** What every policy's spec has, validating or mutating. */
export interface PolicySpecCommon {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  failurePolicy?: string;
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

/** What every binding's spec has. */
export interface BindingSpecCommon {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
}

export interface PolicyObject<S extends PolicySpecCommon = PolicySpecCommon> extends KubeObject {
  spec?: S;
  status?: PolicyStatus;
}

export interface BindingObject<S extends BindingSpecCommon = BindingSpecCommon> extends KubeObject {
  spec?: S;
}

const V1 = 'io.k8s.api.admissionregistration.v1.';

const strings = (description: string): Schema => list(string(''), description, { listType: 'atomic' });

export const paramKindSchema = define(
  `${V1}ParamKind`,
  object('The group, version and kind of the objects a policy takes as params.', {
    apiVersion: string('The API group version of the params: "group/version" ("v1" for the core group).'),
    kind: string('The kind of the params, e.g. ConfigMap.'),
  }, { 'x-kubernetes-map-type': 'atomic' }),
);

export const namedRuleWithOperationsSchema = define(
  `${V1}NamedRuleWithOperations`,
  object('Operations and resources a rule matches, optionally by name.', {
    resourceNames: strings('Names the rule is limited to; empty means every name.'),
    operations: strings('CREATE, UPDATE, DELETE, CONNECT or * for all.'),
    apiGroups: strings('API groups; "" is the core group, * all.'),
    apiVersions: strings('API versions; * all.'),
    resources: strings('Resources, "pods/status" for a subresource, * all; "*/*" every resource and subresource.'),
    scope: string('Cluster, Namespaced or * (the default).'),
  }, { 'x-kubernetes-map-type': 'atomic' }),
);

export const matchResourcesSchema = define(
  `${V1}MatchResources`,
  object('Which requests a policy or binding applies to.', {
    namespaceSelector: described(metaRef('LabelSelector'), 'The namespaces whose objects (and the namespaces themselves) match, by label; empty matches all.'),
    objectSelector: described(metaRef('LabelSelector'), 'The objects that match, by label of the object or its old version; empty matches all.'),
    resourceRules: list(namedRuleWithOperationsSchema, 'The operations and resources that match.', { listType: 'atomic' }),
    excludeResourceRules: list(namedRuleWithOperationsSchema, 'The operations and resources that never match.', { listType: 'atomic' }),
    matchPolicy: string('Exact, or Equivalent (the default): also a request to another version of the same resource.'),
  }, { 'x-kubernetes-map-type': 'atomic' }),
);

export const matchConditionSchema = define(
  `${V1}MatchCondition`,
  object('A CEL condition a request must meet for the policy to apply.', {
    name: string('The condition\'s name, unique in the policy.'),
    expression: string('A CEL expression returning bool.'),
  }, { required: ['name', 'expression'] }),
);

export const variableSchema = define(
  `${V1}Variable`,
  object('A named CEL expression, available to later expressions as variables.<name>.', {
    name: string('The variable\'s name, a CEL identifier.'),
    expression: string('The CEL expression computing the value.'),
  }, { required: ['name', 'expression'], 'x-kubernetes-map-type': 'atomic' }),
);

export const paramRefSchema = define(
  `${V1}ParamRef`,
  object('The params a binding gives its policy.', {
    name: string('The name of one param object; excludes selector.'),
    namespace: string('The namespace of namespaced params; the request\'s namespace when empty.'),
    selector: described(metaRef('LabelSelector'), 'Param objects by label; the policy runs once per match.'),
    parameterNotFoundAction: string('Allow or Deny: what a request gets when no param is found.'),
  }, { 'x-kubernetes-map-type': 'atomic' }),
);

export const policyStatusSchema = (kind: string): Schema =>
  define(
    `${V1}${kind}Status`,
    object(`The observed state of a ${kind}.`, {
      observedGeneration: int64('The generation the status was computed for.'),
      typeChecking: described(
        define(
          `${V1}TypeChecking`,
          object('The results of type checking each expression.', {
            expressionWarnings: list(
              define(
                `${V1}ExpressionWarning`,
                object('A warning about one expression.', {
                  fieldRef: string('The path to the expression\'s field, e.g. spec.validations[0].expression.'),
                  warning: string('What type checking found.'),
                }, { required: ['fieldRef', 'warning'] }),
              ),
              'The type warnings of each expression.',
              { listType: 'atomic' },
            ),
          }),
        ),
        'The results of type checking each expression.',
      ),
      conditions: list(metaRef('Condition'), 'The latest observations of the policy\'s state.', { listType: 'map', mapKeys: ['type'] }),
    }),
  );

/** Common spec fields of both policy kinds, in `types.go`'s order. */
export const policySpecFields = {
  paramKind: described(paramKindSchema, 'The kind of the params; without it the policy takes none.'),
  matchConstraints: described(matchResourcesSchema, 'The requests the policy may apply to; required.'),
};

export const matchConditionsField = list(matchConditionSchema, 'Conditions every one of which must hold for the policy to apply (at most 64).', {
  mergeKey: 'name',
  strategy: 'merge',
  listType: 'map',
  mapKeys: ['name'],
});

export const variablesField = list(variableSchema, 'Variables, evaluated in order, for the other expressions.', { listType: 'atomic' });

function defaultRules(rules: NamedRuleWithOperations[] | undefined): void {
  for (const rule of rules ?? []) rule.scope ??= '*';
}

/** kube's SetDefaults_MatchResources (and SetDefaults_Rule for each rule). */
export function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  defaultRules(m.resourceRules);
  defaultRules(m.excludeResourceRules);
}

/** The defaults of a policy's spec: failurePolicy Fail and its match constraints'. */
export function defaultPolicySpec(spec: PolicySpecCommon | undefined): void {
  if (!spec) return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

/** `paramKind.apiVersion/kind`, or `<unset>`, as kubectl's ParamKind column prints it. */
export function paramKindCell(obj: PolicyObject): string {
  const pk = obj.spec?.paramKind;
  return pk ? `${pk.apiVersion ?? ''}/${pk.kind ?? ''}` : '<unset>';
}

/** Go's `LabelSelector.String()` (the generated one), which the ParamRef column prints for a selector. */
function goSelectorString(sel: LabelSelector): string {
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}: ${sel.matchLabels![k]},`).join('');
  const exprs = (sel.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key ?? ''},Operator:${e.operator ?? ''},Values:[${(e.values ?? []).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** The binding's ParamRef column: `namespace/name` (`*` for the namespace when none is named), the selector, or `<unset>`. */
export function paramRefCell(obj: BindingObject): string {
  const pr = obj.spec?.paramRef;
  if (!pr) return '<unset>';
  if (pr.name) return `${pr.namespace ? pr.namespace : '*'}/${pr.name}`;
  return pr.selector ? goSelectorString(pr.selector) : '<unset>';
}
