/**
 * ControllerRevisions, the history StatefulSets and DaemonSets keep (kube's `controller/history`):
 * a revision's data is a strategic merge patch that puts the template back
 * (`{"spec":{"template":{…,"$patch":"replace"}}}`, what `kubectl rollout undo` applies), named
 * `<owner>-<hash>` where the hash is FNV-32a over the data and the owner's collisionCount, in
 * kube's safe alphabet. The same template gives the same revision; a rollback re-numbers it.
 *
 * @example
 *   const data = templateRevisionData(set.spec.template);
 *   const hash = revisionHash(data, set.status?.collisionCount ?? 0); // e.g. '7c9d6f8b5'
 */
import type { ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import type { PodTemplateSpec } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/client/api-status.js';
import type { ResourceClient } from '../../src/client/resource-client.js';
import { newControllerRef } from './owner-references.js';

/** kube's `rand.SafeEncodeString` alphabet: no vowels, no look-alikes. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

/** JSON with object keys sorted, so equal data always hashes alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function safeEncode(text: string): string {
  return [...text].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

export function revisionHash(data: unknown, collisionCount: number): string {
  const base = canonicalJson(data);
  return safeEncode(String(fnv32a(collisionCount > 0 ? `${base}${collisionCount}` : base)));
}

/** The revision data of a template: the patch `kubectl rollout undo` applies to go back to it. */
export function templateRevisionData(template: PodTemplateSpec | undefined): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...structuredClone(template ?? {}), $patch: 'replace' } } };
}

/** The template a revision holds. */
export function templateOfRevision(revision: ControllerRevision): PodTemplateSpec {
  const template = structuredClone(((revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template ?? {}) as Record<string, unknown>);
  delete template.$patch;
  return template as PodTemplateSpec;
}

export function sameRevisionData(a: ControllerRevision, b: { data?: unknown }): boolean {
  return semanticEqual(a.data, b.data);
}

export function nextRevisionNumber(revisions: ControllerRevision[]): number {
  return revisions.reduce((max, r) => Math.max(max, r.revision ?? 0), 0) + 1;
}

/** A new revision object of `owner` (not yet stored). */
export function newRevision(
  owner: KubeObject,
  ownerApiVersion: string,
  ownerKind: string,
  template: PodTemplateSpec | undefined,
  revision: number,
  collisionCount: number,
  extraLabels: (hash: string) => Record<string, string>,
): ControllerRevision {
  const data = templateRevisionData(template);
  const hash = revisionHash(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${owner.metadata.name ?? ''}-${hash}`,
      namespace: owner.metadata.namespace,
      labels: { ...template?.metadata?.labels, ...extraLabels(hash) },
      ownerReferences: [newControllerRef(owner, ownerApiVersion, ownerKind)],
    },
    data,
    revision,
  };
}

/** The hash part of a revision's name. */
export function hashOfRevisionName(owner: KubeObject, revisionName: string): string {
  const prefix = `${owner.metadata.name ?? ''}-`;
  return revisionName.startsWith(prefix) ? revisionName.slice(prefix.length) : revisionName;
}

/** Revisions in creation order (revision number, then name). */
export function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

/** The revision changes a sync planned: DaemonSets and StatefulSets keep their history alike. */
export interface RevisionChanges {
  createRevision?: ControllerRevision;
  renumberRevision?: ControllerRevision;
  deleteRevisions: ControllerRevision[];
}

/** Writes the plan's new revision (one made by an earlier try is fine) and the revision a rollback renumbered. */
export async function saveRevisions(revisions: ResourceClient<ControllerRevision>, plan: RevisionChanges): Promise<void> {
  if (plan.createRevision) {
    await revisions.create(plan.createRevision).catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
  }
  if (plan.renumberRevision) await revisions.update(plan.renumberRevision);
}

/** Deletes the revisions past the history limit, each only as seen (its uid); one gone or replaced meanwhile is fine. */
export async function pruneRevisions(revisions: ResourceClient<ControllerRevision>, plan: RevisionChanges): Promise<void> {
  for (const revision of plan.deleteRevisions) {
    await revisions.delete(revision.metadata.name!, { preconditions: { uid: revision.metadata.uid } }).catch((err: unknown) => {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    });
  }
}
