/** The shapes of apiextensions.k8s.io/v1 CustomResourceDefinition as the code reads them. */
import type { KubeObject } from '../../registry/object.js';
import { SYSTEM_TENANT } from '../../spaces.js';

/** A JSON schema of a CRD version (only the fields the server reads are typed). */
export interface JSONSchemaProps {
  type?: string;
  default?: unknown;
  id?: string;
  $ref?: string;
  uniqueItems?: boolean;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  patternProperties?: Record<string, JSONSchemaProps>;
  additionalItems?: unknown;
  definitions?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, unknown>;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  nullable?: boolean;
  required?: string[];
  pattern?: string;
  [other: string]: unknown;
}

export interface CustomResourceDefinitionNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string };
}

export interface CustomResourceDefinitionVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: Array<{ jsonPath?: string }>;
}

export interface CustomResourceConversion {
  strategy?: string;
  webhook?: {
    clientConfig?: { url?: string; service?: { namespace?: string; name?: string; path?: string; port?: number }; caBundle?: string };
    conversionReviewVersions?: string[];
  };
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: {
    group?: string;
    names?: CustomResourceDefinitionNames;
    scope?: string;
    versions?: CustomResourceDefinitionVersion[];
    conversion?: CustomResourceConversion;
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CustomResourceDefinitionCondition[];
    acceptedNames?: CustomResourceDefinitionNames;
    storedVersions?: string[];
  };
}

/** The finalizer that holds a deleted CRD until its custom resources are gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function conditionOf(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return conditionOf(crd, type)?.status === 'True';
}

/**
 * Sets a condition, keeping its lastTransitionTime when the status did not change
 * (apiextensions' SetCRDCondition). Returns the conditions to store.
 */
export function withCondition(conditions: readonly CustomResourceDefinitionCondition[], next: CustomResourceDefinitionCondition, now: string): CustomResourceDefinitionCondition[] {
  const old = conditions.find((c) => c.type === next.type);
  const merged = { ...next, lastTransitionTime: old && old.status === next.status ? old.lastTransitionTime : now };
  return old ? conditions.map((c) => (c.type === next.type ? merged : c)) : [...conditions, merged];
}

/**
 * The label that shares a CRD of the system space with every space: Arktos' own, kept so its
 * manifests work unchanged. Only `forced` is known: every space sees the CRD and serves its kind,
 * each space's custom resources under its own key.
 */
export const CRD_SHARING_LABEL = 'arktos.futurewei.com/crd-sharing-policy';
export const CRD_SHARING_FORCED = 'forced';

/** Whether `crd` is a system CRD shared with every space. */
export function isSharedCrd(crd: KubeObject): boolean {
  return crd.metadata.tenant === SYSTEM_TENANT && crd.metadata.labels?.[CRD_SHARING_LABEL] === CRD_SHARING_FORCED;
}
