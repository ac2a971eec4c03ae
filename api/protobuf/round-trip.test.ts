/**
 * JSON → protobuf → JSON gives back the same JSON for a well-filled object of every served
 * built-in kind, its list, and the other types that travel in protobuf.
 */
import { describe, expect, it } from 'vitest';
import { builtinKinds as allKinds } from '../kinds/index.js';
import { decodeObject, encodeObject, hasProtobufForm } from './codec.js';
import { apiSamples, kindSamples, type Sample } from './samples/index.js';
import { listMeta } from './samples/metadata.js';

// Reviews are asked, not stored: they have no lists; their samples are among the apiSamples, and
// bodies as clients write them are in review-bodies.test.ts.
// CustomResourceDefinitions are served as JSON only for now (JSONSchemaProps carries raw JSON
// values in protobuf): negotiation falls back to the client's next choice.
// MutatingAdmissionPolicies (alpha and beta in Kubernetes) are JSON only too for now.
const jsonOnly = (def: (typeof allKinds)[number]): boolean => def.group === 'apiextensions.k8s.io' || def.kind.startsWith('MutatingAdmissionPolicy');
const builtinKinds = allKinds.filter((def) => !def.answer && !jsonOnly(def));
const reviewKinds = allKinds.filter((def) => def.answer);

const label = (s: Sample): string => `${s.apiVersion} ${s.kind} ${String((s['metadata'] as { name?: string } | undefined)?.name ?? '')}`.trim();

describe('every served built-in kind', () => {
  it('has a protobuf form unless served as JSON only', () => {
    expect(allKinds.filter(jsonOnly).map((def) => [`${def.apiVersion} ${def.kind}`, hasProtobufForm(def)])).toEqual([
      ['admissionregistration.k8s.io/v1 MutatingAdmissionPolicy', false],
      ['admissionregistration.k8s.io/v1 MutatingAdmissionPolicyBinding', false],
      ['admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy', false],
      ['admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicyBinding', false],
      ['admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicy', false],
      ['admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicyBinding', false],
      ['apiextensions.k8s.io/v1 CustomResourceDefinition', false],
    ]);
  });

  it.each(builtinKinds.map((def) => [`${def.apiVersion} ${def.kind}`, def] as const))('%s has a protobuf form, for objects and lists, and a sample', (_name, def) => {
    expect(hasProtobufForm(def)).toBe(true);
    expect(hasProtobufForm({ apiVersion: def.apiVersion, kind: def.listKind })).toBe(true);
    expect(kindSamples.some((s) => s.apiVersion === def.apiVersion && s.kind === def.kind)).toBe(true);
  });
});

describe('every review kind', () => {
  it.each(reviewKinds.map((def) => [`${def.apiVersion} ${def.kind}`, def] as const))('%s has a protobuf form and a sample', (_name, def) => {
    expect(hasProtobufForm(def)).toBe(true);
    expect(apiSamples.some((s) => s.apiVersion === def.apiVersion && s.kind === def.kind)).toBe(true);
  });
});

describe('round trip', () => {
  it.each(kindSamples.map((s) => [label(s), s] as const))('%s', (_name, sample) => {
    expect(decodeObject(encodeObject(sample))).toEqual(sample);
  });

  it.each(builtinKinds.map((def) => [def.listKind, def] as const))('%s of two samples', (_name, def) => {
    // Items of a list carry no kind and apiVersion, as Kubernetes writes them.
    const items = kindSamples.filter((s) => s.apiVersion === def.apiVersion && s.kind === def.kind).map(({ apiVersion: _a, kind: _k, ...item }) => item);
    const list = { apiVersion: def.apiVersion, kind: def.listKind, metadata: listMeta, items: [...items, ...items] };
    expect(decodeObject(encodeObject(list))).toEqual(list);
  });

  it.each(apiSamples.map((s) => [label(s), s] as const))('%s', (_name, sample) => {
    expect(decodeObject(encodeObject(sample))).toEqual(sample);
  });
});
