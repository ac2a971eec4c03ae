/**
 * The "Not found" field error (Kubernetes' `field.NotFound`), for references to something that
 * does not exist, such as a volume mount naming no volume of the pod.
 *
 * @example
 *   fieldNotFound('spec.containers[0].volumeMounts[0].name', 'data') // message: 'Not found: "data"'
 */
import type { FieldError } from '../registry/field-error.js';

export function fieldNotFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${JSON.stringify(value)}` };
}
