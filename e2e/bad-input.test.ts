/**
 * Malformed requests over HTTPS, each answered with the Status kube-apiserver gives (code and
 * reason, and the message where clients show it), and nothing stored: the store's revision (the
 * resourceVersion of any list) is the same after the request as before it. One server per
 * backend; the rows run one after another against fixtures made once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, RequestOptions } from './harness/api-client.js';
import { backendCases, startCluster, type Backend, type TestCluster } from './harness/cluster.js';
import { configMap, deployment } from './harness/manifests.js';

interface Fixtures {
  ns: string;
  /** The resourceVersion configmap `cm` had before it was changed once: stale. */
  staleRv: string;
  /** A continue token of a configmap list in `ns`. */
  continueToken: string;
}

interface Row {
  name: string;
  request: (f: Fixtures) => { method: string; path: string; options?: RequestOptions };
  status: number;
  /** The Status reason; absent for a success. */
  reason?: string;
  /** Text the message must contain. */
  message?: string;
  /** The fields of `details.causes`, in order. */
  causes?: string[];
  /** Rows that only make sense on one backend say why in `onlyReason`. */
  only?: Backend;
  onlyReason?: string;
  /** Runs before the revision is taken (e.g. compacts etcd); the request itself must still store nothing. */
  prepare?: (cluster: TestCluster, f: Fixtures) => Promise<Partial<Fixtures>>;
}

const json = (value: unknown, contentType = 'application/json'): RequestOptions => ({ body: JSON.stringify(value), headers: { 'content-type': contentType } });
const raw = (body: string | Buffer, contentType?: string): RequestOptions => ({ body, headers: contentType ? { 'content-type': contentType } : {} });
const cms = (f: Fixtures): string => `/api/v1/namespaces/${f.ns}/configmaps`;
const cm = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, ...extra });
/** The struct kube-apiserver reads a body's apiVersion and kind into, as Go names its type. */
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
/** Just over the 3 MiB body limit. */
const HUGE = 'x'.repeat(3 * 1024 * 1024 + 16);

const rows: Row[] = [
  // ---- bodies that do not decode ------------------------------------------------------------
  { name: 'broken JSON', request: (f) => ({ method: 'POST', path: cms(f), options: raw('{"kind":', 'application/json') }), status: 400, reason: 'BadRequest' },
  { name: 'broken YAML', request: (f) => ({ method: 'POST', path: cms(f), options: raw('kind: ConfigMap\n  bad: [indent', 'application/yaml') }), status: 400, reason: 'BadRequest', message: 'the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: line ' },
  {
    name: 'a JSON array for an object',
    request: (f) => ({ method: 'POST', path: cms(f), options: json([cm('arr')]) }),
    status: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${TYPE_META_STRUCT} (5b7b2261706956657273696f6e223a227631222c226b696e64223a22436f ...)`,
  },
  {
    name: 'an empty body',
    request: (f) => ({ method: 'POST', path: cms(f), options: raw('', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
  },
  {
    name: 'a kind that is no string',
    request: (f) => ({ method: 'POST', path: cms(f), options: raw('{"kind":5}', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
  },
  {
    name: 'an apiVersion that is an object',
    request: (f) => ({ method: 'PUT', path: `${cms(f)}/cm`, options: raw('{"apiVersion":{}}', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string ({"apiVersion":{}})',
  },
  {
    name: 'a Binding whose kind is an object',
    request: (f) => ({ method: 'POST', path: `/api/v1/namespaces/${f.ns}/pods/p/binding`, options: raw('{"kind":{}}', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'the object provided is unrecognized (must be of type Binding): couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string ({"kind":{}})',
  },
  {
    name: 'a JSON patch whose operation is a number',
    request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: raw('[5]', 'application/json-patch+json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation',
  },
  {
    name: 'a JSON patch operation without a path',
    request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: raw('[{"op":"replace","value":1}]', 'application/json-patch+json') }),
    status: 422,
    reason: 'Invalid',
    message: 'replace operation failed to decode path: operation missing path field: missing value',
  },
  {
    name: 'an apply configuration that is a string',
    request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm?fieldManager=bad-input`, options: raw('"x"', 'application/apply-patch+yaml') }),
    status: 400,
    reason: 'BadRequest',
    message: 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}',
  },
  {
    name: 'a TokenRequest that names another kind only',
    request: (f) => ({ method: 'POST', path: `/api/v1/namespaces/${f.ns}/serviceaccounts/default/token`, options: json({ kind: 'Pod' }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'Pod in version "v1" cannot be handled as a TokenRequest',
  },
  { name: 'a protobuf body that does not decode', request: (f) => ({ method: 'POST', path: cms(f), options: raw(Buffer.from('k8s\0'), 'application/vnd.kubernetes.protobuf') }), status: 400, reason: 'BadRequest' },
  { name: 'a JSON body over 3 MiB', request: (f) => ({ method: 'POST', path: cms(f), options: json(cm('huge', { data: { big: HUGE } })) }), status: 413, reason: 'RequestEntityTooLarge' },
  { name: 'a YAML body over 3 MiB', request: (f) => ({ method: 'POST', path: cms(f), options: raw(`kind: ConfigMap\napiVersion: v1\nmetadata: {name: huge}\ndata: {big: ${HUGE}}\n`, 'application/yaml') }), status: 413, reason: 'RequestEntityTooLarge' },
  {
    name: 'a value of the wrong type',
    request: (f) => ({ method: 'POST', path: cms(f), options: json(cm('typed', { data: { k: 1 } })) }),
    status: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  },
  {
    name: 'a timestamp that is no RFC 3339 time',
    request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm('dated'), metadata: { name: 'dated', creationTimestamp: 'yesterday' } }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
  },
  {
    name: 'a MicroTime without its six fraction digits',
    request: (f) => ({
      method: 'POST',
      path: `/apis/coordination.k8s.io/v1/namespaces/${f.ns}/leases`,
      options: json({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'renewed' }, spec: { renewTime: '2024-01-01T00:00:00Z' } }),
    }),
    status: 400,
    reason: 'BadRequest',
    message: 'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
  },
  {
    name: 'replicas as a string (a Helm chart quoting its value)',
    request: (f) => ({ method: 'POST', path: `/apis/apps/v1/namespaces/${f.ns}/deployments`, options: raw(JSON.stringify(deployment(f.ns, 'quoted', 1)).replace('"replicas":1', '"replicas":"2"'), 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  },

  // ---- the wrong object for the URL ---------------------------------------------------------
  {
    name: 'the wrong kind for the URL',
    request: (f) => ({ method: 'POST', path: cms(f), options: json({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wrong-kind' } }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a ConfigMap',
  },
  { name: 'the wrong apiVersion for the URL', request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm('wrong-version'), apiVersion: 'apps/v1' }) }), status: 400, reason: 'BadRequest', message: 'does not match the expected API version' },
  {
    name: 'a namespace in the body other than the URL’s',
    request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm('other-ns'), metadata: { name: 'other-ns', namespace: 'elsewhere' } }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'a tenant in the body other than the request’s',
    request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm('other-tenant'), metadata: { name: 'other-tenant', tenant: 'someone-else' } }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'the tenant of the provided object does not match the tenant sent on the request',
  },
  { name: 'POST to a named resource', request: (f) => ({ method: 'POST', path: `${cms(f)}/cm`, options: json(cm('cm')) }), status: 405, reason: 'MethodNotAllowed' },
  { name: 'a PUT whose body names another object', request: (f) => ({ method: 'PUT', path: `${cms(f)}/cm`, options: json(cm('not-cm')) }), status: 400, reason: 'BadRequest', message: 'the name of the object (not-cm) does not match the name on the URL (cm)' },
  { name: 'a PUT of an object that does not exist (no create on update)', request: (f) => ({ method: 'PUT', path: `${cms(f)}/ghost`, options: json(cm('ghost')) }), status: 404, reason: 'NotFound', message: 'configmaps "ghost" not found' },
  { name: 'create in a namespace that does not exist', request: () => ({ method: 'POST', path: '/api/v1/namespaces/no-such-ns/configmaps', options: json(cm('lost')) }), status: 404, reason: 'NotFound', message: 'namespaces "no-such-ns" not found' },
  { name: 'create across all tenants', request: (f) => ({ method: 'POST', path: `/api/v1/tenants/all/namespaces/${f.ns}/configmaps`, options: json(cm('everywhere')) }), status: 405, reason: 'MethodNotAllowed' },

  // ---- validation ---------------------------------------------------------------------------
  { name: 'a name that is no DNS subdomain', request: (f) => ({ method: 'POST', path: cms(f), options: json(cm('Bad_Name')) }), status: 422, reason: 'Invalid', causes: ['metadata.name'], message: 'ConfigMap "Bad_Name" is invalid' },
  { name: 'a name over 253 characters', request: (f) => ({ method: 'POST', path: cms(f), options: json(cm('a'.repeat(254))) }), status: 422, reason: 'Invalid', causes: ['metadata.name'] },
  { name: 'a namespace name with a dot (DNS label only)', request: () => ({ method: 'POST', path: '/api/v1/namespaces', options: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'has.dot' } }) }), status: 422, reason: 'Invalid', causes: ['metadata.name'] },
  { name: 'no name and no generateName', request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm(''), metadata: {} }) }), status: 422, reason: 'Invalid', causes: ['metadata.name'], message: 'name or generateName is required' },
  { name: 'a label key with a space', request: (f) => ({ method: 'POST', path: cms(f), options: json({ ...cm('labelled'), metadata: { name: 'labelled', labels: { 'bad key': 'v' } } }) }), status: 422, reason: 'Invalid', causes: ['metadata.labels'] },
  {
    name: 'a deployment whose selector does not match its template, with negative replicas',
    request: (f) => ({
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${f.ns}/deployments`,
      options: json({ ...deployment(f.ns, 'mismatch'), spec: { replicas: -1, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }),
    }),
    status: 422,
    reason: 'Invalid',
    causes: ['spec.replicas', 'spec.template.metadata.labels'],
  },
  {
    name: 'a duplicate field under fieldValidation=Strict',
    request: (f) => ({ method: 'POST', path: `${cms(f)}?fieldValidation=Strict`, options: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"},"data":{}}`, 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: 'strict decoding error: duplicate field "metadata.name"',
  },
  { name: 'an unknown field under fieldValidation=Strict', request: (f) => ({ method: 'POST', path: `${cms(f)}?fieldValidation=Strict`, options: json(cm('strict', { dat: {} })) }), status: 400, reason: 'BadRequest', message: 'strict decoding error: unknown field "dat"' },
  {
    name: 'a nested unknown field under fieldValidation=Strict',
    request: (f) => ({ method: 'POST', path: `/apis/apps/v1/namespaces/${f.ns}/deployments?fieldValidation=Strict`, options: json({ ...deployment(f.ns, 'strict'), spec: { ...(deployment(f.ns, 'strict').spec as object), replica: 3 } }) }),
    status: 400,
    reason: 'BadRequest',
    message: 'unknown field "spec.replica"',
  },

  // ---- query parameters ---------------------------------------------------------------------
  { name: 'a label selector that does not parse', request: (f) => ({ method: 'GET', path: `${cms(f)}?labelSelector=${encodeURIComponent('app in (x')}` }), status: 400, reason: 'BadRequest', message: 'unable to parse requirement' },
  { name: 'a label selector with an invalid key', request: (f) => ({ method: 'GET', path: `${cms(f)}?labelSelector=${encodeURIComponent('-bad=x')}` }), status: 400, reason: 'BadRequest' },
  { name: 'a field selector on an unknown field', request: (f) => ({ method: 'GET', path: `${cms(f)}?fieldSelector=${encodeURIComponent('spec.foo=x')}` }), status: 400, reason: 'BadRequest', message: 'spec.foo' },
  { name: 'a field selector without an operator', request: (f) => ({ method: 'GET', path: `${cms(f)}?fieldSelector=metadata.name` }), status: 400, reason: 'BadRequest' },
  { name: 'a continue token that is garbage', request: (f) => ({ method: 'GET', path: `${cms(f)}?limit=1&continue=garbage` }), status: 400, reason: 'BadRequest' },
  { name: 'a continue token of another resource', request: (f) => ({ method: 'GET', path: `/api/v1/namespaces/${f.ns}/secrets?limit=1&continue=${f.continueToken}` }), status: 400, reason: 'BadRequest' },
  { name: 'a limit that is no number', request: (f) => ({ method: 'GET', path: `${cms(f)}?limit=abc` }), status: 400, reason: 'BadRequest' },
  { name: 'a resourceVersion that is no number (list)', request: (f) => ({ method: 'GET', path: `${cms(f)}?resourceVersion=abc` }), status: 400, reason: 'BadRequest' },
  { name: 'a resourceVersion that is no number (get)', request: (f) => ({ method: 'GET', path: `${cms(f)}/cm?resourceVersion=abc` }), status: 400, reason: 'BadRequest' },
  {
    name: 'an unknown resourceVersionMatch',
    request: (f) => ({ method: 'GET', path: `${cms(f)}?resourceVersion=1&resourceVersionMatch=Bogus` }),
    status: 422,
    reason: 'Invalid',
    causes: ['resourceVersionMatch'],
    message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus"',
  },
  { name: 'resourceVersionMatch without resourceVersion', request: (f) => ({ method: 'GET', path: `${cms(f)}?resourceVersionMatch=NotOlderThan` }), status: 422, reason: 'Invalid', causes: ['resourceVersionMatch'] },
  { name: 'sendInitialEvents on a watch without resourceVersionMatch', request: (f) => ({ method: 'GET', path: `${cms(f)}?watch=true&sendInitialEvents=true` }), status: 422, reason: 'Invalid', causes: ['resourceVersionMatch'] },
  { name: 'a dryRun value other than All', request: (f) => ({ method: 'POST', path: `${cms(f)}?dryRun=Maybe`, options: json(cm('dry')) }), status: 400, reason: 'BadRequest' },
  { name: 'an unknown fieldValidation', request: (f) => ({ method: 'POST', path: `${cms(f)}?fieldValidation=Loose`, options: json(cm('loose')) }), status: 400, reason: 'BadRequest' },
  { name: 'an Accept nothing is served in', request: (f) => ({ method: 'GET', path: cms(f), options: { headers: { accept: 'text/html' } } }), status: 406, reason: 'NotAcceptable' },

  // ---- paths --------------------------------------------------------------------------------
  { name: 'an unknown resource', request: (f) => ({ method: 'GET', path: `/api/v1/namespaces/${f.ns}/widgets` }), status: 404, reason: 'NotFound' },
  { name: 'an unknown group', request: () => ({ method: 'GET', path: '/apis/nope.example.com/v1/things' }), status: 404, reason: 'NotFound' },
  { name: 'an unknown version of a known group', request: (f) => ({ method: 'GET', path: `/apis/apps/v9/namespaces/${f.ns}/deployments` }), status: 404, reason: 'NotFound' },
  { name: 'an unknown subresource', request: (f) => ({ method: 'GET', path: `${cms(f)}/cm/scale` }), status: 404, reason: 'NotFound' },
  // kube-apiserver serves no deletecollection on namespaces (each goes through its own deletion); spaces likewise.
  { name: 'DELETE of every namespace at once', request: () => ({ method: 'DELETE', path: '/api/v1/namespaces' }), status: 405, reason: 'MethodNotAllowed' },
  { name: 'DELETE of every tenant at once', request: () => ({ method: 'DELETE', path: '/api/v1/tenants' }), status: 405, reason: 'MethodNotAllowed' },
  { name: 'DELETE on the scale subresource', request: (f) => ({ method: 'DELETE', path: `/apis/apps/v1/namespaces/${f.ns}/deployments/web/scale` }), status: 405, reason: 'MethodNotAllowed' },

  // ---- concurrency and preconditions --------------------------------------------------------
  {
    name: 'an update with a stale resourceVersion',
    request: (f) => ({ method: 'PUT', path: `${cms(f)}/cm`, options: json({ ...cm('cm'), metadata: { name: 'cm', resourceVersion: f.staleRv }, data: { a: 'lost' } }) }),
    status: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on configmaps "cm": the object has been modified; please apply your changes to the latest version and try again',
  },
  {
    name: 'a Lease update without resourceVersion (leases need one)',
    request: (f) => ({ method: 'PUT', path: `/apis/coordination.k8s.io/v1/namespaces/${f.ns}/leases/leader`, options: json({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leader' }, spec: { holderIdentity: 'usurper' } }) }),
    status: 422,
    reason: 'Invalid',
    causes: ['metadata.resourceVersion'],
    message: 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  },
  {
    name: 'a PodDisruptionBudget update without resourceVersion (budgets need one)',
    request: (f) => ({
      method: 'PUT',
      path: `/apis/policy/v1/namespaces/${f.ns}/poddisruptionbudgets/budget`,
      options: json({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } }),
    }),
    status: 422,
    reason: 'Invalid',
    causes: ['metadata.resourceVersion'],
  },
  {
    name: 'a Scale PUT with a stale resourceVersion (kubectl scale --current-replicas sends no Content-Type)',
    request: (f) => ({ method: 'PUT', path: `/apis/apps/v1/namespaces/${f.ns}/deployments/web/scale`, options: raw(JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', resourceVersion: f.staleRv }, spec: { replicas: 9 } })) }),
    status: 409,
    reason: 'Conflict',
  },
  { name: 'a Scale with negative replicas', request: (f) => ({ method: 'PUT', path: `/apis/apps/v1/namespaces/${f.ns}/deployments/web/scale`, options: json({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: -2 } }) }), status: 422, reason: 'Invalid', causes: ['spec.replicas'] },
  { name: 'a DELETE whose uid precondition fails', request: (f) => ({ method: 'DELETE', path: `${cms(f)}/cm`, options: json({ preconditions: { uid: 'not-the-uid' } }) }), status: 409, reason: 'Conflict', message: 'Precondition failed: UID in precondition: not-the-uid' },
  { name: 'a DELETE with an unknown propagationPolicy', request: (f) => ({ method: 'DELETE', path: `${cms(f)}/cm`, options: json({ propagationPolicy: 'Sometimes' }) }), status: 422, reason: 'Invalid' },
  { name: 'a DELETE of something that is not there', request: (f) => ({ method: 'DELETE', path: `${cms(f)}/ghost` }), status: 404, reason: 'NotFound' },

  // ---- patches ------------------------------------------------------------------------------
  { name: 'an unsupported patch type', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: raw('{}', 'text/plain') }), status: 415, reason: 'UnsupportedMediaType' },
  { name: 'a JSON patch that is no list of operations', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json({ op: 'add' }, 'application/json-patch+json') }), status: 400, reason: 'BadRequest' },
  { name: 'a JSON patch whose test fails', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json([{ op: 'test', path: '/data/a', value: 'nope' }], 'application/json-patch+json') }), status: 422, reason: 'Invalid' },
  { name: 'a merge patch giving a field the wrong type', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json({ data: { a: 5 } }, 'application/merge-patch+json') }), status: 422, reason: 'Invalid', causes: ['patch'] },
  { name: 'a JSON patch replacing the whole object with a number', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json([{ op: 'replace', path: '', value: 5 }], 'application/json-patch+json') }), status: 422, reason: 'Invalid' },
  {
    name: 'a merge patch adding an unknown field under fieldValidation=Strict',
    request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm?fieldValidation=Strict`, options: json({ extra: { b: 1 } }, 'application/merge-patch+json') }),
    status: 422,
    reason: 'Invalid',
    causes: ['patch'],
    message: 'strict decoding error: unknown field "extra"',
  },
  { name: 'a merge patch renaming the object', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json({ metadata: { name: 'renamed' } }, 'application/merge-patch+json') }), status: 400, reason: 'BadRequest', message: 'the name of the object (renamed) does not match the name on the URL (cm)' },
  { name: 'a merge patch moving the object to another namespace', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm`, options: json({ metadata: { namespace: 'elsewhere' } }, 'application/merge-patch+json') }), status: 400, reason: 'BadRequest' },
  { name: 'force on a patch that is no apply patch', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/cm?force=true`, options: json({}, 'application/merge-patch+json') }), status: 422, reason: 'Invalid' },
  { name: 'a patch of something that is not there', request: (f) => ({ method: 'PATCH', path: `${cms(f)}/ghost`, options: json({}, 'application/merge-patch+json') }), status: 404, reason: 'NotFound' },

  // ---- accepted, as kube-apiserver accepts it -----------------------------------------------
  { name: 'delete-collection in a namespace that does not exist (an empty list, as kube-apiserver answers)', request: () => ({ method: 'DELETE', path: '/api/v1/namespaces/no-such-ns/configmaps' }), status: 200 },

  // ---- last, since it compacts the store ----------------------------------------------------
  {
    name: 'a continue token from before a compaction',
    only: 'etcd',
    onlyReason: 'the embedded store keeps 10,000 revisions and cannot be compacted from outside',
    prepare: async (cluster, f) => {
      const first = (await cluster.api.request('GET', `${cms(f)}?limit=1`)).json<{ metadata: { continue: string } }>();
      // A write after the token, then compaction up to now: the token's revision is gone.
      await cluster.create(configMap(f.ns, 'after-token'));
      const revision = Number((await cluster.api.request('GET', `${cms(f)}?limit=1`)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
      const res = await fetch(`${cluster.etcd!.endpoint}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision: String(revision), physical: true }) });
      expect(res.status).toBe(200);
      return { continueToken: first.metadata.continue };
    },
    request: (f) => ({ method: 'GET', path: `${cms(f)}?limit=1&continue=${f.continueToken}` }),
    status: 410,
    reason: 'Expired',
    message: 'The provided continue parameter is too old',
  },
];

describe.each(backendCases())('malformed requests on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let fixtures: Fixtures;

    /** The store's current revision, as any list reports it. */
    const revision = async (): Promise<string> => {
      const res = await cluster.api.request('GET', `/api/v1/namespaces/${fixtures.ns}/configmaps?limit=1`);
      return res.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    };

    beforeAll(async () => {
      // No background writes (leader and identity Lease renewals), so the store's revision moves only
      // when a request writes.
      cluster = await startCluster(backend, { extraArgs: ['--leader-elect=false', '--identity-lease-renew-interval-seconds=3600', '--identity-lease-duration-seconds=7200'] });
      const ns = await cluster.newNamespace('bad-input');
      await cluster.create(configMap(ns, 'cm', { a: '1' }), configMap(ns, 'cm2'), configMap(ns, 'cm3'), deployment(ns, 'web', 2));
      const put = (path: string, body: unknown): Promise<ApiResponse> => cluster.api.request('PUT', path, { json: body });
      // Created with PUT: leases allow that, even without a resourceVersion.
      expect((await put(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/leader`, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leader' }, spec: { holderIdentity: 'me' } })).status).toBe(201);
      const pdb = await cluster.api.request('POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, {
        json: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
      });
      expect(pdb.status, pdb.body).toBe(201);
      const before = (await cluster.read(`/api/v1/namespaces/${ns}/configmaps/cm`)) as { metadata: { resourceVersion: string } };
      const changed = await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/cm`, { body: '{"data":{"a":"2"}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(changed.status).toBe(200);
      // The deployment changes too, so the stale version is stale for its Scale as well.
      await cluster.api.request('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/web`, { body: '{"metadata":{"labels":{"touched":"yes"}}}', headers: { 'content-type': 'application/merge-patch+json' } });
      const list = (await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps?limit=1`)).json<{ metadata: { continue: string } }>();
      fixtures = { ns, staleRv: before.metadata.resourceVersion, continueToken: list.metadata.continue };
      // The controllers act on the fixtures (the deployment's ReplicaSet and pods, the scheduler's
      // events, the budget's status): each row's "nothing stored" check starts once they are done.
      let last = '';
      for (let quiet = 0, tries = 0; quiet < 4 && tries < 120; tries += 1) {
        const now = await revision();
        quiet = now === last ? quiet + 1 : 0;
        last = now;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    afterAll(() => cluster?.cleanup());

    it('has at least 30 rows', () => {
      expect(rows.length).toBeGreaterThanOrEqual(30);
    });

    // Rows for the other backend only are listed as skipped, with their reason in the name.
    it.skip.each(rows.filter((row) => row.only !== undefined && row.only !== backend))('$name: skipped here, $onlyReason', () => undefined);

    it.each(rows.filter((row) => row.only === undefined || row.only === backend))('$name → $status $reason', async (row) => {
      if (row.prepare) Object.assign(fixtures, await row.prepare(cluster, fixtures));
      const { method, path, options } = row.request(fixtures);
      const revisionBefore = await revision();
      const res = await cluster.api.request(method, path, options);
      const body = res.json<{ kind?: string; status?: string; code?: number; reason?: string; message?: string; details?: { causes?: Array<{ field?: string }> } }>();
      expect(res.status, res.body.slice(0, 1000)).toBe(row.status);
      if (row.reason !== undefined) {
        expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: row.status, reason: row.reason });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      if (row.message !== undefined) expect(body.message).toContain(row.message);
      if (row.causes !== undefined) expect(body.details?.causes?.map((c) => c.field)).toEqual(row.causes);
      // Nothing stored: no write happened anywhere in the store.
      expect(await revision()).toBe(revisionBefore);
    });

    // Found by the fuzzer: a non-ASCII field name made Node refuse the Warning header (500).
    it('warns of unknown fields with non-ASCII and control characters in Go-quoted, UTF-8 Warning headers', async () => {
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"odd-fields"},"data":{},"ünïcödé\\u0085":1,"ctl\\u0001":2}`;
      const res = await cluster.api.request('POST', cms(fixtures), raw(body, 'application/json'));
      expect(res.status, res.body).toBe(201);
      const warnings = [res.headers.warning].flat().join(', ');
      expect(Buffer.from(warnings, 'latin1').toString('utf8')).toBe(String.raw`299 - "unknown field \"ünïcödé\\u0085\"", 299 - "unknown field \"ctl\\x01\""`);
      const strict = await cluster.api.request('POST', `${cms(fixtures)}?fieldValidation=Strict`, raw(body.replace('odd-fields', 'odd-strict'), 'application/json'));
      expect(strict.status).toBe(400);
      expect(strict.json<{ message: string }>().message).toBe(String.raw`ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "ünïcödé\u0085", unknown field "ctl\x01"`);
      await cluster.api.request('DELETE', `${cms(fixtures)}/odd-fields`);
    });

    // Found by the fuzzer: a null in stringData reached the Secret's defaulting (500).
    it('decodes nulls as Go does: a null map value is its zero value', async () => {
      const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'nulls', labels: { a: null } }, type: null, stringData: { s: null }, data: { d: null } };
      const res = await cluster.api.request('POST', `/api/v1/namespaces/${fixtures.ns}/secrets`, json(body));
      expect(res.status, res.body).toBe(201);
      expect(res.json()).toMatchObject({ metadata: { labels: { a: '' } }, type: 'Opaque', data: { d: '', s: '' } });
      await cluster.api.request('DELETE', `/api/v1/namespaces/${fixtures.ns}/secrets/nulls`);
    });

    it('still serves the fixtures unchanged afterwards', async () => {
      expect(await cluster.read(`/api/v1/namespaces/${fixtures.ns}/configmaps/cm`)).toMatchObject({ data: { a: '2' } });
      expect(await cluster.read(`/apis/apps/v1/namespaces/${fixtures.ns}/deployments/web`)).toMatchObject({ spec: { replicas: 2 } });
      expect(await cluster.read(`/apis/coordination.k8s.io/v1/namespaces/${fixtures.ns}/leases/leader`)).toMatchObject({ spec: { holderIdentity: 'me' } });
      for (const name of ['huge', 'typed', 'wrong-kind', 'Bad_Name', 'strict', 'dry', 'lost', 'everywhere', 'renamed']) {
        expect(await cluster.read(`/api/v1/namespaces/${fixtures.ns}/configmaps/${name}`)).toBeNull();
      }
    });
  });
});
