/**
 * Field errors, Kubernetes' `field.Error`: one per offending field, each becoming one `causes[]`
 * entry of a 422 Invalid Status and one `* field: message` line in kubectl's output.
 */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indices and map keys: `spec.containers[0].image`, `data[my.key]`. */
  field: string;
  /** The message without the field, as in `causes[].message`: `Invalid value: "x": must be ...`. */
  message: string;
}

/** Renders a bad value the way Go's field errors quote them. */
function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const withDetail = (head: string, detail?: string): string => (detail ? `${head}: ${detail}` : head);

export const fieldErrors = {
  required: (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, message: withDetail('Required value', detail) }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${quote(value)}`, detail),
  }),
  notSupported: (field: string, value: unknown, supported: string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${quote(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, message: `Duplicate value: ${quote(value)}` }),
  tooLong: (field: string, max: number): FieldError => ({ type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${max} bytes` }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    message: `Invalid value: ${quote(value)}: ${detail}`,
  }),
  /** Kubernetes' ValidateImmutableField wording. */
  immutable: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${quote(value)}: field is immutable`,
  }),
};
