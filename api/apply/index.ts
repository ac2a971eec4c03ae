/**
 * Server-side apply and managedFields, as kube-apiserver computes them with
 * structured-merge-diff. What the store and the PATCH handler use:
 * - `fieldManagerName(query.fieldManager, userAgent)`: who writes;
 * - `statusResetFields()` / `fieldsOutside(schema, ['status'])`: what the write may not own;
 * - `computeUpdateManagedFields({...})` for create, update and non-apply patches;
 * - `applyConfiguration({...})` for `application/apply-patch+yaml`, and `applyConflictError`
 *   for the 409 it may lead to.
 *
 * @example
 *   const manager = fieldManagerName(query.fieldManager, req.headers['user-agent']);
 *   const resetFields = def.status ? statusResetFields() : new FieldSet();
 *   const result = applyConfiguration({ schema: def.schema, resetFields, live, config, manager, force, apiVersion: def.apiVersion, kind: def.kind, now: new Date() });
 *   if (result.conflicts) throw applyConflictError(result.conflicts);
 */
export { applyConfiguration, type ApplyInput, type ApplyResult } from './apply.js';
export { applyConflictError, type ApplyConflict } from './conflicts.js';
export { fieldManagerName } from './field-manager-name.js';
export { FieldSet } from './field-set.js';
export { LAST_APPLIED_ANNOTATION } from './last-applied.js';
export { managedFieldsFromRequest } from './managed-fields.js';
export { fieldsOutside, statusResetFields } from './reset-fields.js';
export { computeUpdateManagedFields, type UpdateManagedFieldsInput } from './update-managed-fields.js';
