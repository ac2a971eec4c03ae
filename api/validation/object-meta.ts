/**
 * `metadata` checks every kind shares, worded as kube-apiserver words them (apimachinery's
 * `ValidateObjectMetaAccessor` plus core's finalizer rule): the name under the kind's rule,
 * namespace and tenant by scope, labels, annotations, owner references, finalizers, managed fields.
 *
 * @example
 *   validateObjectMeta({ metadata: { name: 'Foo', namespace: 'ns1' } }, 'dns1123-subdomain', 'namespace')
 *   // [{ field: 'metadata.name', message: 'Invalid value: "Foo": a lowercase RFC 1123 subdomain must ...' }]
 */
import type { Scope } from '../../storage/keys.js';
import { fieldErrors, type FieldError } from '../registry/field-error.js';
import type { KubeObject, ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../registry/object.js';
import type { NameRule } from '../registry/resource-definition.js';
import { child, index } from './field-path.js';
import { semanticEqual } from './equality.js';
import { validateAnnotations, validateLabels, validateQualifiedName } from './labels.js';
import { isDNS1123Label, nameErrors } from './names.js';

const META = 'metadata';
const NEGATIVE = 'must be greater than or equal to 0';
const FIELD_MANAGER_MAX_LENGTH = 128;
const SUBRESOURCE_MAX_LENGTH = 256;

/** Finalizers Kubernetes accepts without a `domain/` prefix. */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Kinds that may never own another object: an Event's lifetime is too short to hang others on. */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);

/**
 * The checks run on create (and again on every update) for any kind. Name generation has already
 * happened, so a missing name means neither name nor generateName was given. `kubeFinalizers`:
 * finalizers without a domain must be Kubernetes' own, as the built-in kinds' validation requires
 * (apiextensions' kinds use apimachinery's checks, which do not).
 */
export function validateObjectMeta(obj: KubeObject, nameRule: NameRule, scope: Scope, kubeFinalizers = true): FieldError[] {
  const meta = obj.metadata;
  const errs: FieldError[] = [];
  if (meta.generateName) {
    errs.push(...nameErrors(nameRule, meta.generateName, true).map((msg) => fieldErrors.invalid(child(META, 'generateName'), meta.generateName, msg)));
  }
  if (!meta.name) {
    errs.push(fieldErrors.required(child(META, 'name'), 'name or generateName is required'));
  } else {
    errs.push(...nameErrors(nameRule, meta.name, false).map((msg) => fieldErrors.invalid(child(META, 'name'), meta.name, msg)));
  }
  errs.push(...validatePlacement(meta, scope));
  if (meta.generation !== undefined && meta.generation < 0) errs.push(fieldErrors.invalid(child(META, 'generation'), meta.generation, NEGATIVE));
  errs.push(...validateLabels(meta.labels, child(META, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, child(META, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences ?? [], child(META, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers ?? [], child(META, 'finalizers')));
  errs.push(...validateManagedFields(meta.managedFields ?? [], child(META, 'managedFields')));
  if (kubeFinalizers) (meta.finalizers ?? []).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, index(child(META, 'finalizers'), i))));
  return errs;
}

/** Namespace by the kind's scope, and our `tenant`: a DNS label on everything but cluster-scoped kinds. */
function validatePlacement(meta: ObjectMeta, scope: Scope): FieldError[] {
  const errs: FieldError[] = [];
  const nsPath = child(META, 'namespace');
  if (scope === 'namespace') {
    if (!meta.namespace) errs.push(fieldErrors.required(nsPath));
    else errs.push(...isDNS1123Label(meta.namespace).map((msg) => fieldErrors.invalid(nsPath, meta.namespace, msg)));
  } else if (meta.namespace) {
    errs.push(fieldErrors.forbidden(nsPath, 'not allowed on this type'));
  }
  const tenantPath = child(META, 'tenant');
  if (scope === 'cluster') {
    if (meta.tenant) errs.push(fieldErrors.forbidden(tenantPath, 'not allowed on this type'));
  } else if (meta.tenant) {
    errs.push(...isDNS1123Label(meta.tenant).map((msg) => fieldErrors.invalid(tenantPath, meta.tenant, msg)));
  }
  return errs;
}

/** `apiVersion` split as Kubernetes' ParseGroupVersion does; undefined when it has too many slashes. */
function parseApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Each reference names its owner completely; at most one of them is the controller. */
export function validateOwnerReferences(refs: readonly OwnerReference[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    const gv = parseApiVersion(ref.apiVersion ?? '');
    if (!gv?.version) errs.push(fieldErrors.invalid(child(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(fieldErrors.invalid(child(path, 'kind'), ref.kind ?? '', 'must not be empty'));
    if (!ref.name) errs.push(fieldErrors.invalid(child(path, 'name'), ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(fieldErrors.invalid(child(path, 'uid'), ref.uid ?? '', 'must not be empty'));
    const gvk = `${gv?.group ?? ''}/${gv?.version ?? ''}, Kind=${ref.kind ?? ''}`;
    if (BANNED_OWNERS.has(gvk)) errs.push(fieldErrors.invalid(path, ref, `${gvk} is disallowed from being an owner`));
    if (ref.controller) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(
          fieldErrors.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** Finalizers are qualified names; orphaning and foreground deletion exclude each other. */
export function validateFinalizers(finalizers: readonly string[], path: string): FieldError[] {
  const errs = finalizers.flatMap((f) => validateQualifiedName(f, path));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldErrors.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** A finalizer without a `domain/` prefix must be one of Kubernetes' own. */
export function validateKubeFinalizerName(name: string, path: string): FieldError[] {
  if (name.includes('/') || STANDARD_FINALIZERS.has(name)) return [];
  return [fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
}

function unprintable(text: string): Array<{ char: string; at: number }> {
  const found: Array<{ char: string; at: number }> = [];
  let at = 0;
  for (const char of text) {
    if (/[\p{C}\p{Z}]/u.test(char) && char !== ' ') found.push({ char, at });
    at += Buffer.byteLength(char, 'utf8');
  }
  return found;
}

export function validateManagedFields(entries: readonly ManagedFieldsEntry[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  entries.forEach((entry, i) => {
    const p = index(path, i);
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') {
      errs.push(fieldErrors.invalid(child(p, 'operation'), entry.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (entry.fieldsType && entry.fieldsType !== 'FieldsV1') errs.push(fieldErrors.invalid(child(p, 'fieldsType'), entry.fieldsType, 'must be `FieldsV1`'));
    const manager = entry.manager ?? '';
    if (manager.length > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldErrors.tooLong(child(p, 'manager'), FIELD_MANAGER_MAX_LENGTH));
    for (const { char, at } of unprintable(manager)) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(fieldErrors.invalid(child(p, 'manager'), manager, `invalid character ${code} (at position ${at})`));
    }
    if ((entry.subresource ?? '').length > SUBRESOURCE_MAX_LENGTH) errs.push(fieldErrors.tooLong(child(p, 'subresource'), SUBRESOURCE_MAX_LENGTH));
  });
  return errs;
}

/**
 * The checks only an update has: the identity fields stay, generation never goes back, and an
 * object being deleted gains no finalizers. Run in addition to `validateObjectMeta`. A store that
 * allows unconditional updates fills `resourceVersion` in before calling this, as Kubernetes does.
 */
export function validateObjectMetaUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const meta = obj.metadata;
  const prev = old.metadata;
  const errs: FieldError[] = [];
  if (prev.deletionTimestamp) {
    const added = [...new Set(meta.finalizers ?? [])].filter((f) => !(prev.finalizers ?? []).includes(f)).sort();
    if (added.length > 0) {
      const goList = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push(fieldErrors.forbidden(child(META, 'finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}`));
    }
  }
  if (!meta.resourceVersion) errs.push(fieldErrors.invalid(child(META, 'resourceVersion'), meta.resourceVersion ?? '', 'must be specified for an update'));
  if ((meta.generation ?? 0) < (prev.generation ?? 0)) errs.push(fieldErrors.invalid(child(META, 'generation'), meta.generation ?? 0, 'must not be decremented'));
  const immutable: Array<keyof ObjectMeta> = ['name', 'namespace', 'tenant', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'];
  for (const field of immutable) {
    if (!semanticEqual(meta[field], prev[field])) errs.push(fieldErrors.immutable(child(META, field), meta[field] ?? ''));
  }
  return errs;
}
