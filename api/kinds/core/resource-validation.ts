/**
 * Resource names and quantities (container resources, quotas, limit ranges, claims), with
 * Kubernetes' rules: which names are standard, which must be fully qualified, which quantities
 * must be whole numbers, and requests against limits.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { key } from '../../validation/field-path.js';
import { isQualifiedName } from '../../validation/labels.js';
import { parseQuantity, formatQuantity, QUANTITY_FORMAT_ERROR, type Quantity } from '../../validation/quantity.js';
import type { QuantityValue, ResourceList, ResourceRequirements } from './types.js';

const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);

const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** Unprefixed names and `*kubernetes.io/` names belong to Kubernetes itself. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** A vendor resource such as `example.com/gpu`: whole units only, never overcommitted. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** Whether requests may be lower than limits: native resources other than huge pages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

/** Whether a quota of this name is one Kubernetes defines (rather than a prefixed custom one). */
export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

/** A resource name anywhere: qualified, and standard unless prefixed. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePageResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** A resource name a container may request. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePageResourceName(name)) {
      errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** A resource name a quota may limit. */
export function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for quota'));
  }
  return errs;
}

/**
 * A quantity at `path`, parsed. Kubernetes refuses a malformed quantity while decoding (400); we
 * report it as a field error on the offending field, which names it more precisely.
 */
export function parseQuantityField(value: QuantityValue, path: string, errs: FieldError[]): Quantity | undefined {
  const q = parseQuantity(value);
  if (!q) errs.push(fieldErrors.invalid(path, value, QUANTITY_FORMAT_ERROR));
  return q;
}

/** Not negative; a whole number for countable resources. */
export function validateResourceQuantityValue(name: string, value: QuantityValue, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const q = parseQuantityField(value, path, errs);
  if (!q) return errs;
  if (q.nanos < 0n) errs.push(fieldErrors.invalid(path, formatQuantity(q), 'must be greater than or equal to 0'));
  if ((INTEGER_RESOURCES.has(name) || isExtendedResourceName(name)) && q.nanos % 1_000_000_000n !== 0n) {
    errs.push(fieldErrors.invalid(path, formatQuantity(q), 'must be an integer'));
  }
  return errs;
}

/** Every entry of a ResourceList, with the name rule `nameRule`. */
export function validateResourceList(list: ResourceList | undefined, path: string, nameRule: (name: string, path: string) => FieldError[]): FieldError[] {
  return Object.entries(list ?? {}).flatMap(([name, value]) => [...nameRule(name, key(path, name)), ...validateResourceQuantityValue(name, value, key(path, name))]);
}

/** A container's requests and limits; a request may not exceed its limit. */
export function validateResourceRequirements(req: ResourceRequirements | undefined, path: string): FieldError[] {
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const errs = validateResourceList(req?.limits, limPath, validateContainerResourceName);
  errs.push(...validateResourceList(req?.requests, reqPath, validateContainerResourceName));
  let cpuOrMemory = false;
  let hugePages = false;
  for (const list of [req?.limits, req?.requests]) {
    for (const name of Object.keys(list ?? {})) {
      if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
      if (isHugePageResourceName(name)) hugePages = true;
    }
  }
  for (const [name, value] of Object.entries(req?.requests ?? {})) {
    const request = parseQuantity(value);
    const limitValue = req?.limits?.[name];
    if (!request) continue;
    if (limitValue !== undefined) {
      const limit = parseQuantity(limitValue);
      if (!limit) continue;
      if (request.nanos !== limit.nanos && !isOvercommitAllowed(name)) {
        errs.push(fieldErrors.invalid(reqPath, formatQuantity(request), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      } else if (request.nanos > limit.nanos) {
        errs.push(fieldErrors.invalid(reqPath, formatQuantity(request), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldErrors.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  if (hugePages && !cpuOrMemory) errs.push(fieldErrors.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}
