/**
 * Validation of LabelSelector objects (`matchLabels` + `matchExpressions`, as in a Deployment's
 * `spec.selector`), with apimachinery's messages. The string form used in list queries is parsed
 * by `api/selection/label-selector.ts`.
 *
 * @example
 *   validateLabelSelector({ matchExpressions: [{ key: 'app', operator: 'In' }] }, 'spec.selector')
 *   // [{ field: 'spec.selector.matchExpressions[0].values', message: "Required value: must be specified when `operator` is 'In' or 'NotIn'" }]
 */
import { fieldErrors, type FieldError } from '../registry/field-error.js';
import { child, index } from './field-path.js';
import { fromSelectorObject } from '../selection/label-selector.js';
import { isValidLabelValue, validateLabels, validateQualifiedName } from './labels.js';

export interface LabelSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorValidationOptions {
  /** Tolerate values that are not valid label values (for objects stored before the check existed). */
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelectorRequirement(req: LabelSelectorRequirement, path: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErrors.required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErrors.forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(fieldErrors.invalid(child(path, 'operator'), req.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateQualifiedName(req.key ?? '', child(path, 'key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((msg) => fieldErrors.invalid(index(child(path, 'values'), i), v, msg))));
  }
  return errs;
}

/** A selector at `path`; an absent selector is valid here (whether one is required is the kind's call). */
export function validateLabelSelector(selector: LabelSelector | undefined, path: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (!selector) return [];
  const errs = validateLabels(selector.matchLabels, child(path, 'matchLabels'));
  (selector.matchExpressions ?? []).forEach((req, i) => errs.push(...validateLabelSelectorRequirement(req, index(child(path, 'matchExpressions'), i), opts)));
  return errs;
}

/**
 * Whether `labels` satisfy `selector`, as `metav1.LabelSelectorAsSelector` would decide (an empty
 * selector matches everything). Assumes the selector is valid.
 */
export function labelSelectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return fromSelectorObject(selector)!.matches(labels);
}
