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
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indices and map keys: `spec.containers[0].image`, `data[my.key]`. */
  field: string;
  /** The message without the field, as in `causes[].message`: `Invalid value: "x": must be ...`. */
  message: string;
}

/**
 * Go's `%v` of a float64: the shortest `%g`, so an exponent from 1e6 up or below 1e-4, with at
 * least two digits (`1e+06`, `2.5e-05`).
 */
export function goFloat(n: number): string {
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 6) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}

/** Renders a bad value the way Go's field errors quote them (integers as int64, other numbers as float64). */
function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return goFloat(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Go's `ErrorList.ToAggregate().Error()`: one error as is, several as `[a, b]`. */
export function aggregateText(errors: readonly FieldError[]): string {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

const withDetail = (head: string, detail?: string): string => (detail ? `${head}: ${detail}` : head);

export const fieldErrors = {
  required: (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, message: withDetail('Required value', detail) }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${quote(value)}`, detail),
  }),
  /**
   * Kubernetes' NotSupported wording. `note` says why a value kube-apiserver accepts is refused
   * here; it follows the supported values so kube's prefix stays intact.
   */
  notSupported: (field: string, value: unknown, supported: string[], note?: string): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${quote(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}${note ? `; ${note}` : ''}`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, message: `Duplicate value: ${quote(value)}` }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` }),
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
