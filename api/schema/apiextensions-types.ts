/**
 * apiextensions.k8s.io/v1 schemas: CustomResourceDefinition's spec and status, and JSONSchemaProps,
 * the recursive OpenAPI v3 schema a CRD version carries (Kubernetes' `types.go`,
 * `types_jsonschema.go`). Fields that hold any JSON value (`default`, `enum`, `example`) and the
 * "schema or bool/array" unions are untyped, as Kubernetes publishes them.
 */
import { timeField } from './meta.js';
import { boolean, bytes, define, described, int64, integer, list, map, number, object, ref, string } from './schema.js';

export const APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';
const V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

const v1 = (name: string) => ref(V1 + name);

define(V1 + 'JSON', { description: 'Any valid JSON value.' });
define(V1 + 'JSONSchemaPropsOrBool', { description: 'A schema, or a boolean (true allows anything, false nothing).' });
define(V1 + 'JSONSchemaPropsOrArray', { description: 'A schema, or an array of schemas.' });
define(V1 + 'JSONSchemaPropsOrStringArray', { description: 'A schema, or an array of property names.' });

define(
  V1 + 'ExternalDocumentation',
  object('A link to more documentation.', { description: string('What the link is about.'), url: string('Where the documentation is.') }),
);

define(
  V1 + 'ValidationRule',
  object(
    'A CEL rule the values of a schema must satisfy.',
    {
      rule: string('The CEL expression.'),
      message: string('What is reported when the rule fails.'),
      messageExpression: string('A CEL expression whose value is reported when the rule fails.'),
      reason: string('The machine-readable reason reported when the rule fails.'),
      fieldPath: string('The field reported when the rule fails, relative to the schema.'),
      optionalOldSelf: boolean('Whether the rule also runs on create, with oldSelf absent.'),
    },
    { required: ['rule'] },
  ),
);

const schemaList = (description: string) => list(v1('JSONSchemaProps'), description, { listType: 'atomic' });
const schemaMap = (description: string) => map(v1('JSONSchemaProps'), description);

export const jsonSchemaPropsSchema = define(
  V1 + 'JSONSchemaProps',
  object('A JSON-Schema following Specification Draft 4 (http://json-schema.org/).', {
    id: string('Not supported.'),
    $schema: string('The JSON-Schema dialect.'),
    $ref: string('Not supported.'),
    description: string('What the value is.'),
    type: string('object, array, string, integer, number or boolean.'),
    format: string('A format of the type, such as int32, date-time or byte.'),
    title: string('A short title.'),
    default: described(v1('JSON'), 'The value used when none is given (structural schemas only).'),
    maximum: number('Largest value allowed.'),
    exclusiveMaximum: boolean('Whether maximum itself is excluded.'),
    minimum: number('Smallest value allowed.'),
    exclusiveMinimum: boolean('Whether minimum itself is excluded.'),
    maxLength: int64('Longest string allowed.'),
    minLength: int64('Shortest string allowed.'),
    pattern: string('A regular expression strings must match.'),
    maxItems: int64('Most items allowed.'),
    minItems: int64('Fewest items allowed.'),
    uniqueItems: boolean('Not supported (true is refused).'),
    multipleOf: number('Numbers must be multiples of this.'),
    enum: list(v1('JSON'), 'The only values allowed.', { listType: 'atomic' }),
    maxProperties: int64('Most properties allowed.'),
    minProperties: int64('Fewest properties allowed.'),
    required: list(string('A property name.'), 'Properties that must be present.', { listType: 'atomic' }),
    items: described(v1('JSONSchemaPropsOrArray'), 'The schema of array items.'),
    allOf: schemaList('Schemas the value must all match.'),
    oneOf: schemaList('Schemas the value must match exactly one of.'),
    anyOf: schemaList('Schemas the value must match at least one of.'),
    not: described(v1('JSONSchemaProps'), 'A schema the value must not match.'),
    properties: schemaMap('The schemas of known properties.'),
    additionalProperties: described(v1('JSONSchemaPropsOrBool'), 'The schema of map values, or whether other properties are allowed.'),
    patternProperties: schemaMap('Not supported.'),
    dependencies: map(v1('JSONSchemaPropsOrStringArray'), 'Not supported.'),
    additionalItems: described(v1('JSONSchemaPropsOrBool'), 'Not supported.'),
    definitions: schemaMap('Not supported.'),
    externalDocs: described(v1('ExternalDocumentation'), 'More documentation.'),
    example: described(v1('JSON'), 'An example value.'),
    nullable: boolean('Whether null is allowed (and kept).'),
    'x-kubernetes-preserve-unknown-fields': boolean('Keep fields the schema does not declare instead of pruning them.'),
    'x-kubernetes-embedded-resource': boolean('The value is a Kubernetes object, with apiVersion, kind and metadata.'),
    'x-kubernetes-int-or-string': boolean('The value is an integer or a string.'),
    'x-kubernetes-list-map-keys': list(string('A key field.'), 'The fields that identify an item of a map-type list.', { listType: 'atomic' }),
    'x-kubernetes-list-type': string('atomic, set or map: how lists merge under server-side apply.'),
    'x-kubernetes-map-type': string('granular or atomic: how objects merge under server-side apply.'),
    'x-kubernetes-validations': list(v1('ValidationRule'), 'CEL rules the value must satisfy.', { mapKeys: ['rule'], mergeKey: 'rule', strategy: 'merge' }),
  }),
);

define(
  V1 + 'CustomResourceDefinitionNames',
  object(
    'The names a custom resource is served under.',
    {
      plural: string('The plural name, the URL segment: /apis/<group>/<version>/.../<plural>. Lower case.'),
      singular: string('The singular name, an alias on the CLI; defaults to the kind in lower case.'),
      shortNames: list(string('A short name.'), 'Short aliases on the CLI (kubectl get ct). Lower case.', { listType: 'atomic' }),
      kind: string('The kind, in CamelCase.'),
      listKind: string('The kind of lists; defaults to <kind>List.'),
      categories: list(string('A category.'), 'Groups of resources the resource belongs to (kubectl get all).', { listType: 'atomic' }),
    },
    { required: ['plural', 'kind'] },
  ),
);

define(
  V1 + 'CustomResourceValidation',
  object('How custom resources of a version are validated.', {
    openAPIV3Schema: described(v1('JSONSchemaProps'), 'The OpenAPI v3 schema for validation and pruning.'),
  }),
);

define(V1 + 'CustomResourceSubresourceStatus', object('Enables the status subresource: /status writes status only, and the main resource ignores it.', {}));

define(
  V1 + 'CustomResourceSubresourceScale',
  object(
    'Enables the scale subresource.',
    {
      specReplicasPath: string('The JSON path of the desired replicas, under .spec.'),
      statusReplicasPath: string('The JSON path of the observed replicas, under .status.'),
      labelSelectorPath: string('The JSON path of the pod selector string, under .status or .spec.'),
    },
    { required: ['specReplicasPath', 'statusReplicasPath'] },
  ),
);

define(
  V1 + 'CustomResourceSubresources',
  object('The subresources of a version.', {
    status: described(v1('CustomResourceSubresourceStatus'), 'The status subresource.'),
    scale: described(v1('CustomResourceSubresourceScale'), 'The scale subresource.'),
  }),
);

define(
  V1 + 'CustomResourceColumnDefinition',
  object(
    'A server-side printing column.',
    {
      name: string('The column header.'),
      type: string('integer, number, string, boolean or date.'),
      format: string('A format of the type.'),
      description: string('What the column shows.'),
      priority: integer('0 always shown; greater only with -o wide.'),
      jsonPath: string('The simple JSON path of the value, evaluated against each object.'),
    },
    { required: ['name', 'type', 'jsonPath'] },
  ),
);

define(V1 + 'SelectableField', object('A field usable in field selectors.', { jsonPath: string('The simple JSON path of the field.') }, { required: ['jsonPath'] }));

define(
  V1 + 'CustomResourceDefinitionVersion',
  object(
    'One version of a custom resource.',
    {
      name: string('The version name, as in /apis/<group>/<version>.'),
      served: boolean('Whether the version is served by the REST API.'),
      storage: boolean('Whether objects are stored in this version; exactly one version is.'),
      deprecated: boolean('Whether the version is deprecated (clients get a warning).'),
      deprecationWarning: string('The warning clients get instead of the default one.'),
      schema: described(v1('CustomResourceValidation'), 'The schema of this version.'),
      subresources: described(v1('CustomResourceSubresources'), 'The subresources of this version.'),
      additionalPrinterColumns: list(v1('CustomResourceColumnDefinition'), 'Columns kubectl get shows.', { listType: 'atomic' }),
      selectableFields: list(v1('SelectableField'), 'Fields usable in field selectors.', { listType: 'atomic' }),
    },
    { required: ['name', 'served', 'storage'] },
  ),
);

define(
  V1 + 'ServiceReference',
  object(
    'A service in a namespace.',
    {
      namespace: string('The namespace of the service.'),
      name: string('The name of the service.'),
      path: string('The URL path requests are sent to.'),
      port: integer('The port requests are sent to; 443 by default.'),
    },
    { required: ['namespace', 'name'] },
  ),
);

define(
  V1 + 'WebhookClientConfig',
  object('How to reach a webhook.', {
    url: string('The webhook URL, https://host:port/path.'),
    service: described(v1('ServiceReference'), 'The service of the webhook.'),
    caBundle: bytes('PEM CA bundle that signs the webhook server certificate.'),
  }),
);

define(
  V1 + 'WebhookConversion',
  object(
    'Conversion through a webhook.',
    {
      clientConfig: described(v1('WebhookClientConfig'), 'How to reach the webhook.'),
      conversionReviewVersions: list(string('A version.'), 'ConversionReview versions the webhook accepts, preferred first.', { listType: 'atomic' }),
    },
    { required: ['conversionReviewVersions'] },
  ),
);

define(
  V1 + 'CustomResourceConversion',
  object(
    'How custom resources are converted between versions.',
    {
      strategy: string('None (only apiVersion changes) or Webhook.'),
      webhook: described(v1('WebhookConversion'), 'The webhook, for strategy Webhook.'),
    },
    { required: ['strategy'] },
  ),
);

define(
  V1 + 'CustomResourceDefinitionSpec',
  object(
    'What a custom resource is: its group, names, scope and versions.',
    {
      group: string('The API group, a DNS subdomain with at least one dot.'),
      names: described(v1('CustomResourceDefinitionNames'), 'The names of the resource.'),
      scope: string('Cluster or Namespaced.'),
      versions: list(v1('CustomResourceDefinitionVersion'), 'The versions of the resource, exactly one of them for storage.', { listType: 'atomic' }),
      conversion: described(v1('CustomResourceConversion'), 'How versions are converted.'),
      preserveUnknownFields: boolean('Deprecated: true keeps fields no schema declares (not allowed in v1 with structural schemas).'),
    },
    { required: ['group', 'names', 'scope', 'versions'] },
  ),
);

define(
  V1 + 'CustomResourceDefinitionCondition',
  object(
    'One condition of a CustomResourceDefinition.',
    {
      type: string('NamesAccepted, Established, Terminating, ...'),
      status: string('True, False or Unknown.'),
      lastTransitionTime: timeField('When the status last changed.'),
      reason: string('Why, in CamelCase.'),
      message: string('Why, for humans.'),
    },
    { required: ['type', 'status'] },
  ),
);

define(
  V1 + 'CustomResourceDefinitionStatus',
  object('The observed state of a CustomResourceDefinition.', {
    conditions: list(v1('CustomResourceDefinitionCondition'), 'The current conditions.', { mapKeys: ['type'] }),
    acceptedNames: described(v1('CustomResourceDefinitionNames'), 'The names actually served; they may differ from spec.names after a conflict.'),
    storedVersions: list(string('A version.'), 'Every version objects have ever been stored in.', { listType: 'atomic' }),
  }),
);

export const customResourceDefinitionSchema = define(
  V1 + 'CustomResourceDefinition',
  object(
    'A custom resource to serve: its names, versions and schemas.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(v1('CustomResourceDefinitionSpec'), 'The resource to serve.'),
      status: described(v1('CustomResourceDefinitionStatus'), 'The observed state.'),
    },
    { required: ['spec'], 'x-kubernetes-group-version-kind': [{ group: APIEXTENSIONS_GROUP, version: 'v1', kind: 'CustomResourceDefinition' }] },
  ),
);
