/**
 * rbac.authorization.k8s.io/v1 schemas shared by roles and bindings: policy rules, subjects,
 * role references and aggregation rules, with Kubernetes' list and struct semantics.
 */
import { define, described, list, object, ref, string } from './schema.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export const policyRuleSchema = define(
  'io.k8s.api.rbac.v1.PolicyRule',
  object(
    'Actions allowed on resources or non-resource URLs (not to whom, nor where).',
    {
      verbs: list(string('A verb.'), 'Verbs allowed; "*" is every verb.', { listType: 'atomic' }),
      apiGroups: list(string('An API group.'), 'API groups of the resources; "" is the core group, "*" every group.', { listType: 'atomic' }),
      resources: list(string('A resource.'), 'Resources the rule applies to; "*" is every resource.', { listType: 'atomic' }),
      resourceNames: list(string('An object name.'), 'Names of the objects allowed; all when empty.', { listType: 'atomic' }),
      nonResourceURLs: list(string('A URL path.'), 'URL paths allowed, "*" only as the last step; cluster roles only, and never with resources.', { listType: 'atomic' }),
    },
    { required: ['verbs'] },
  ),
);

export const subjectSchema = define(
  'io.k8s.api.rbac.v1.Subject',
  object(
    'Who a binding grants its role to: a user, a group or a service account.',
    {
      kind: string('User, Group or ServiceAccount.'),
      apiGroup: string('"" for service accounts; rbac.authorization.k8s.io for users and groups (the defaults).'),
      name: string('Name of the subject.'),
      namespace: string('Namespace of a service account.'),
    },
    { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const roleRefSchema = define(
  'io.k8s.api.rbac.v1.RoleRef',
  object(
    'The role a binding grants.',
    {
      apiGroup: string('Group of the role: rbac.authorization.k8s.io.'),
      kind: string('Role or ClusterRole.'),
      name: string('Name of the role.'),
    },
    { required: ['apiGroup', 'kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const aggregationRuleSchema = define(
  'io.k8s.api.rbac.v1.AggregationRule',
  object('How a cluster role collects the rules of other cluster roles.', {
    clusterRoleSelectors: list(
      ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'),
      'Selectors over cluster roles; the rules of every cluster role any of them matches are added.',
      { listType: 'atomic' },
    ),
  }),
);

/** The metadata property every RBAC kind shares. */
export const rbacMetadata = described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.');
