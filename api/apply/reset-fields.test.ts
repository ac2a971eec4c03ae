import { describe, expect, it } from 'vitest';
import { fieldsOutside, statusResetFields } from './reset-fields.js';
import { schemaOf } from './testing.js';

describe('fields a write resets', () => {
  it('is status for the main resource', () => {
    expect(statusResetFields().toFieldsV1()).toEqual({ 'f:status': {} });
  });

  it('is everything but status for /status', () => {
    expect(fieldsOutside(schemaOf('Deployment'), ['status']).toFieldsV1()).toEqual({ 'f:apiVersion': {}, 'f:kind': {}, 'f:metadata': {}, 'f:spec': {} });
  });

  it('is everything but spec.finalizers for a namespace’s /finalize', () => {
    expect(fieldsOutside(schemaOf('Namespace'), ['spec', 'finalizers']).toFieldsV1()).toEqual({ 'f:apiVersion': {}, 'f:kind': {}, 'f:metadata': {}, 'f:status': {} });
  });
});
