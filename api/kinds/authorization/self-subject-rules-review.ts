/**
 * SelfSubjectRulesReview (authorization.k8s.io/v1): "what may I do in this namespace?" —
 * `kubectl auth can-i --list`. Asked, not stored. The rules are the caller's RBAC rules in its
 * space for that namespace, split as Kubernetes' RBAC rule resolver splits them.
 */
import type { PolicyRule } from '../rbac/rules.js';
import { badRequest } from '../../registry/api-errors.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, define, described, list, object, string } from '../../schema/schema.js';
import { stringList } from './access-attributes.js';

const G = 'io.k8s.api.authorization.v1.';

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SelfSubjectRulesReview extends KubeObject {
  spec?: { namespace?: string };
  status?: {
    resourceRules: ResourceRule[];
    nonResourceRules: NonResourceRule[];
    incomplete: boolean;
    evaluationError?: string;
  };
}

const resourceRule = define(
  `${G}ResourceRule`,
  object('Actions allowed on resources.', {
    verbs: stringList('Allowed verbs; * for all.'),
    apiGroups: stringList('API groups; * for all.'),
    resources: stringList('Resources; * for all.'),
    resourceNames: stringList('Object names; empty for all.'),
  }),
);

const nonResourceRule = define(
  `${G}NonResourceRule`,
  object('Actions allowed on non-resource paths.', { verbs: stringList('Allowed verbs; * for all.'), nonResourceURLs: stringList('Paths; a trailing * matches a prefix.') }),
);

const status = define(
  `${G}SubjectRulesReviewStatus`,
  object('The rules that apply.', {
    resourceRules: list(resourceRule, 'Rules on resources.'),
    nonResourceRules: list(nonResourceRule, 'Rules on non-resource paths.'),
    incomplete: boolean('Whether some rules could not be evaluated.'),
    evaluationError: string('What went wrong while evaluating, if anything.'),
  }),
);

const schema = defineKindSchema(`${G}SelfSubjectRulesReview`, { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' }, 'Lists what the caller may do in a namespace.', {
  spec: described(define(`${G}SelfSubjectRulesReviewSpec`, object('The namespace asked about.', { namespace: string('The namespace. Required.') })), 'The namespace asked about.'),
  status: described(status, 'The rules, filled in by the server.'),
});

/**
 * Policy rules as a rules review reports them: a rule naming resources is a resource rule, one
 * naming URLs a non-resource rule (a rule naming both counts as both, one naming neither as none).
 * Empty lists are left out, as Go leaves out nil slices.
 */
export function splitRules(rules: readonly PolicyRule[]): Pick<NonNullable<SelfSubjectRulesReview['status']>, 'resourceRules' | 'nonResourceRules'> {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  const some = (values: string[] | undefined): string[] | undefined => (values && values.length > 0 ? [...values] : undefined);
  for (const rule of rules) {
    const verbs = [...(rule.verbs ?? [])];
    if ((rule.resources ?? []).length > 0) {
      const r: ResourceRule = { verbs };
      const apiGroups = some(rule.apiGroups);
      const resourceNames = some(rule.resourceNames);
      if (apiGroups) r.apiGroups = apiGroups;
      r.resources = [...rule.resources!];
      if (resourceNames) r.resourceNames = resourceNames;
      resourceRules.push(r);
    }
    if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs, nonResourceURLs: [...rule.nonResourceURLs!] });
  }
  return { resourceRules, nonResourceRules };
}

export const selfSubjectRulesReviews = defineKind<SelfSubjectRulesReview>({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  scope: 'space',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: (review, requester) => {
    // kubectl always names one (the context's namespace, `default` when none is set).
    const namespace = review.spec?.namespace;
    if (!namespace) throw badRequest('no namespace on request');
    return { ...review, status: { ...splitRules(requester.rulesFor(namespace)), incomplete: false } };
  },
});
