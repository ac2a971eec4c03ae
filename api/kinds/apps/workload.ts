/**
 * What the workload kinds (apps/v1 and batch/v1) share: selector checks and formatting, the
 * template-derived printer columns, Kubernetes' int-or-percent rules for rollout knobs
 * (`maxSurge: 25%`, reused by policy/v1 as upstream does), and a few apimachinery checks the other
 * non-core groups use too (non-negative counts, immutable fields, domain-prefixed paths).
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import type { PrinterColumn } from '../../registry/resource-definition.js';
import { semanticEqual } from '../../validation/equality.js';
import { labelSelectorMatches, validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { isDNS1123Subdomain, regexError } from '../../validation/names.js';
import { containerCells } from '../core/table-cells.js';
import type { IntOrString, PodTemplateSpec } from '../core/types.js';

/** True for a JSON object (not an array, not null): what defaulting may descend into. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `ValidateImmutableField`: an error when the value changed. */
export function validateImmutable(value: unknown, old: unknown, field: string): FieldError[] {
  return semanticEqual(value, old) ? [] : [fieldErrors.immutable(field, value ?? null)];
}

// ---- label selectors ------------------------------------------------------------------------

/**
 * A selector as `LabelSelectorAsSelector(...).String()` prints it: requirements sorted by key,
 * `''` for an empty or absent selector.
 */
export function selectorString(sel: LabelSelector | undefined): string {
  if (!sel) return '';
  const requirements: Array<{ key: string; text: string }> = Object.entries(sel.matchLabels ?? {}).map(([key, value]) => ({ key, text: `${key}=${value}` }));
  for (const expr of sel.matchExpressions ?? []) {
    const key = expr.key ?? '';
    const values = [...(expr.values ?? [])].sort().join(',');
    const text = { In: `${key} in (${values})`, NotIn: `${key} notin (${values})`, Exists: key, DoesNotExist: `!${key}` }[expr.operator ?? ''];
    if (text !== undefined) requirements.push({ key, text });
  }
  return requirements
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',');
}

/** `metav1.FormatLabelSelector`: the selector string, or `<none>` when it selects everything or nothing. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  return selectorString(sel) || '<none>';
}

/** A selector without requirements, which selects everything. */
export function isEmptySelector(sel: LabelSelector): boolean {
  return Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;
}

/** A pod controller's selector: present, well-formed and not empty (`kindWord` names the kind in the message). */
export function validateControllerSelector(sel: LabelSelector | undefined, kindWord: string): FieldError[] {
  if (!sel) return [fieldErrors.required('spec.selector')];
  const errors = validateLabelSelector(sel, 'spec.selector');
  if (isEmptySelector(sel)) errors.push(fieldErrors.invalid('spec.selector', sel, `empty selector is invalid for ${kindWord}`));
  return errors;
}

/** Whether Kubernetes can turn the selector into a label query (`LabelSelectorAsSelector`); an absent one can. */
export function isUsableSelector(sel: LabelSelector | undefined): boolean {
  return validateLabelSelector(sel, 'spec.selector').length === 0;
}

/** The pods the template stamps out must be selected. An absent selector selects nothing, an empty one everything. */
export function validateSelectsTemplate(sel: LabelSelector | undefined, template: PodTemplateSpec | undefined): FieldError[] {
  const labels = template?.metadata?.labels;
  if (sel && (isEmptySelector(sel) || labelSelectorMatches(sel, labels))) return [];
  return [fieldErrors.invalid('spec.template.metadata.labels', labels ?? {}, '`selector` does not match template `labels`')];
}

/** Pods of long-running controllers restart forever and have no deadline. */
export function validateAlwaysRestart(template: PodTemplateSpec | undefined, kind: string): FieldError[] {
  const errors: FieldError[] = [];
  const policy = template?.spec?.restartPolicy ?? '';
  if (policy !== 'Always') errors.push(fieldErrors.notSupported('spec.template.spec.restartPolicy', policy, ['Always']));
  if (template?.spec?.activeDeadlineSeconds != null) {
    errors.push(fieldErrors.forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errors;
}

// ---- numbers ----------------------------------------------------------------------------------

/** apimachinery `validate.GEZ` / `ValidateNonnegativeField`; an absent value passes. */
export function validateNonNegative(value: number | undefined, field: string): FieldError[] {
  return value != null && value < 0 ? [fieldErrors.invalid(field, value, 'must be greater than or equal to 0')] : [];
}

const PERCENT_RE = /^[0-9]+%$/;
const PERCENT_MESSAGE = "a valid percent string must be a numeric string followed by an ending '%'";

/** The number in `"25%"`, or undefined when the value is not a percentage. */
function percentValue(value: IntOrString | undefined): number | undefined {
  return typeof value === 'string' && PERCENT_RE.test(value) ? Number(value.slice(0, -1)) : undefined;
}

/** The integer an int-or-percent stands for (a percentage's number; 0 for anything else). */
export function intOrPercentValue(value: IntOrString | undefined): number {
  if (typeof value === 'number') return value;
  return percentValue(value) ?? 0;
}

/** A count (`5`) or a percentage (`"25%"`), never negative. */
export function validatePositiveIntOrPercent(value: IntOrString | undefined, field: string): FieldError[] {
  if (typeof value === 'string') {
    return PERCENT_RE.test(value) ? [] : [fieldErrors.invalid(field, value, regexError(PERCENT_MESSAGE, '[0-9]+%', '1%', '93%'))];
  }
  return validateNonNegative(value, field);
}

/** A percentage above 100% is refused; counts are not bounded here. */
export function validateAtMost100Percent(value: IntOrString | undefined, field: string): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [fieldErrors.invalid(field, value, 'must not be greater than 100%')] : [];
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** apimachinery `IsDomainPrefixedPath`: `acme.io/some/path`, as controller names are written. */
export function validateDomainPrefixedPath(value: string, field: string): FieldError[] {
  if (value === '') return [fieldErrors.required(field)];
  const slash = value.indexOf('/');
  const host = value.slice(0, Math.max(slash, 0));
  const path = value.slice(slash + 1);
  if (slash <= 0 || path === '') return [fieldErrors.invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errors = isDNS1123Subdomain(host).map((msg) => fieldErrors.invalid(field, host, msg));
  if (!HTTP_PATH_RE.test(path)) errors.push(fieldErrors.invalid(field, path, regexError('Invalid path', HTTP_PATH_FMT)));
  return errors;
}

// ---- printer columns --------------------------------------------------------------------------

/** The wide-only Containers and Images columns of every workload kind. */
export function templateColumns<T extends KubeObject>(template: (obj: T) => PodTemplateSpec | undefined): PrinterColumn<T>[] {
  return [
    { name: 'Containers', type: 'string', description: 'Container names in the pod template.', priority: 1, cell: (obj) => containerCells(template(obj)?.spec?.containers).names },
    { name: 'Images', type: 'string', description: 'Container images in the pod template.', priority: 1, cell: (obj) => containerCells(template(obj)?.spec?.containers).images },
  ];
}

/** The wide-only Selector column. */
export function selectorColumn<T extends KubeObject>(
  selector: (obj: T) => LabelSelector | undefined,
  format: (sel: LabelSelector | undefined) => string = formatLabelSelector,
): PrinterColumn<T> {
  return { name: 'Selector', type: 'string', description: 'Label query over the pods this object manages.', priority: 1, cell: (obj) => format(selector(obj)) };
}

/** A count cell that reads an optional status number as 0, as Go's zero value prints. */
export function count(value: number | undefined): number {
  return value ?? 0;
}
