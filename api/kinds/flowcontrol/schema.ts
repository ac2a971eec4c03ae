/**
 * OpenAPI schemas of flowcontrol.apiserver.k8s.io/v1 (k8s.io/api/flowcontrol/v1 types.go): the
 * FlowSchema and PriorityLevelConfiguration specs and statuses, field for field.
 */
import { timeField } from '../../schema/meta.js';
import { boolean, define, described, enumOf, integer, list, object, string, type Schema } from '../../schema/schema.js';

const PACKAGE = 'io.k8s.api.flowcontrol.v1.';

const strings = (description: string): Schema => list(string(''), description, { listType: 'set' });

const subject = define(
  `${PACKAGE}Subject`,
  object('Who a flow schema matches: a user, a group or a service account.', {
    kind: enumOf('`User`, `Group` or `ServiceAccount`.', ['Group', 'ServiceAccount', 'User']),
    user: described(define(`${PACKAGE}UserSubject`, object('A user.', { name: string('The user name; `*` matches every user.') }, { required: ['name'] })), 'The user, when kind is User.'),
    group: described(define(`${PACKAGE}GroupSubject`, object('A group.', { name: string('The group name; `*` matches every group.') }, { required: ['name'] })), 'The group, when kind is Group.'),
    serviceAccount: described(
      define(`${PACKAGE}ServiceAccountSubject`, object('A service account.', { namespace: string('Its namespace.'), name: string('Its name; `*` matches every one of the namespace.') }, { required: ['namespace', 'name'] })),
      'The service account, when kind is ServiceAccount.',
    ),
  }, { required: ['kind'], 'x-kubernetes-unions': [{ discriminator: 'kind', 'fields-to-discriminateBy': { group: 'Group', serviceAccount: 'ServiceAccount', user: 'User' } }] }),
);

const resourceRule = define(
  `${PACKAGE}ResourcePolicyRule`,
  object('Which resource requests a rule matches: verb, API group, resource and namespace all must match.', {
    verbs: strings('Verbs to match; `*` matches all.'),
    apiGroups: strings('API groups to match; `*` matches all.'),
    resources: strings('Resources (`pods`, `pods/status`) to match; `*` matches all.'),
    clusterScope: boolean('Whether requests with no namespace (cluster-scoped resources) match.'),
    namespaces: strings('Namespaces to match; `*` matches every namespace, not requests without one.'),
  }, { required: ['verbs', 'apiGroups', 'resources'] }),
);

const nonResourceRule = define(
  `${PACKAGE}NonResourcePolicyRule`,
  object('Which non-resource requests a rule matches: verb and URL both must match.', {
    verbs: strings('Verbs to match; `*` matches all.'),
    nonResourceURLs: strings('URL paths to match; `*` matches all, `/healthz/*` a subtree.'),
  }, { required: ['verbs', 'nonResourceURLs'] }),
);

const rulesWithSubjects = define(
  `${PACKAGE}PolicyRulesWithSubjects`,
  object('A request matches when one subject and one rule match it.', {
    subjects: list(described(subject, ''), 'Who the rule applies to; at least one.', { listType: 'atomic' }),
    resourceRules: list(described(resourceRule, ''), 'Resource requests matched.', { listType: 'atomic' }),
    nonResourceRules: list(described(nonResourceRule, ''), 'Non-resource requests matched.', { listType: 'atomic' }),
  }, { required: ['subjects'] }),
);

const condition = (kind: string): Schema =>
  define(
    `${PACKAGE}${kind}Condition`,
    object(`A condition of a ${kind}.`, {
      type: string('The condition type.'),
      status: string('True, False or Unknown.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Why, in one CamelCase word.'),
      message: string('Why, for humans.'),
    }),
  );

const conditions = (kind: string): Schema => list(described(condition(kind), ''), 'The current state.', { listType: 'map', mapKeys: ['type'], mergeKey: 'type', strategy: 'merge' });

export const flowSchemaSpec = define(
  `${PACKAGE}FlowSchemaSpec`,
  object('How requests are classified to this schema and its priority level.', {
    priorityLevelConfiguration: described(
      define(`${PACKAGE}PriorityLevelConfigurationReference`, object('A priority level by name.', { name: string('The name of the priority level.') }, { required: ['name'] })),
      'The priority level of matching requests.',
    ),
    matchingPrecedence: integer('Lower is tried first; 1 to 10000, default 1000.'),
    distinguisherMethod: described(
      define(`${PACKAGE}FlowDistinguisherMethod`, object('How matching requests split into flows.', { type: enumOf('`ByUser` or `ByNamespace`.', ['ByNamespace', 'ByUser']) }, { required: ['type'] })),
      'How requests of this schema split into flows; here the space always distinguishes flows.',
    ),
    rules: list(described(rulesWithSubjects, ''), 'The rules; a request matches when one rule does.', { listType: 'atomic' }),
  }, { required: ['priorityLevelConfiguration'] }),
);

export const flowSchemaStatus = define(`${PACKAGE}FlowSchemaStatus`, object('The observed state of a FlowSchema.', { conditions: conditions('FlowSchema') }));

const queuing = define(
  `${PACKAGE}QueuingConfiguration`,
  object('The queues of a priority level.', {
    queues: integer('Number of queues; default 64.'),
    handSize: integer('Queues each flow is dealt (shuffle sharding); default 8.'),
    queueLengthLimit: integer('Requests one queue may hold; default 50.'),
  }),
);

const limitResponse = define(
  `${PACKAGE}LimitResponse`,
  object('What happens to requests that cannot run at once.', {
    type: enumOf('`Queue` or `Reject`.', ['Queue', 'Reject']),
    queuing: described(queuing, 'The queues, when type is Queue.'),
  }, { required: ['type'], 'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { queuing: 'Queuing' } }] }),
);

export const priorityLevelSpec = define(
  `${PACKAGE}PriorityLevelConfigurationSpec`,
  object('How much the server runs of a priority level at once.', {
    type: enumOf('`Exempt` or `Limited`.', ['Exempt', 'Limited']),
    limited: described(
      define(`${PACKAGE}LimitedPriorityLevelConfiguration`, object('A level with a share of the server.', {
        nominalConcurrencyShares: integer('Share of the server concurrency limit; default 30.'),
        lendablePercent: integer('Percent of the seats other levels may borrow (0-100).'),
        borrowingLimitPercent: integer('Percent of its seats the level may borrow from others.'),
        limitResponse: described(limitResponse, 'What happens to requests that cannot run at once.'),
      })),
      'The share and queues, when type is Limited.',
    ),
    exempt: described(
      define(`${PACKAGE}ExemptPriorityLevelConfiguration`, object('A level never limited.', {
        nominalConcurrencyShares: integer('Share of the server concurrency limit; default 0.'),
        lendablePercent: integer('Percent of the seats other levels may borrow (0-100).'),
      })),
      'Settings of an Exempt level.',
    ),
  }, { required: ['type'], 'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { exempt: 'Exempt', limited: 'Limited' } }] }),
);

export const priorityLevelStatus = define(`${PACKAGE}PriorityLevelConfigurationStatus`, object('The observed state of a PriorityLevelConfiguration.', { conditions: conditions('PriorityLevelConfiguration') }));
