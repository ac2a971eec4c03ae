/**
 * CEL optional values as functions (`optional.of`, `optional.none`, `optional.ofNonZeroValue`,
 * `hasValue`, `value`, `orValue`, `or`), which `@bufbuild/cel` lacks: a CRD rule's `oldSelf` is
 * one when the rule sets `optionalOldSelf`. At run time an optional is a list of no or one value;
 * the checker keeps it a type of its own (`optional_type(T)`). The `?.` and `[?…]` syntax is not
 * parsed by the library, so it stays unsupported.
 */
import { celError, celFunc, celList, celMethod, CelScalar, isCelList, isCelMap, listType, type CelList, type CelValue } from '@bufbuild/cel';
import { libraryOf, type Declaration } from './declare.js';
import { BOOL, DYN, type CelType } from './types.js';

const LIST = listType(CelScalar.DYN);

const optionalOf = (elem: CelType): CelType => ({ kind: 'optional', elem });

/** A declaration on an optional target with `arity` arguments. */
const onOptional = (arity: number, result: (elem: CelType, args: CelType[]) => CelType): Declaration => (t, a) =>
  t?.kind === 'optional' && a.length === arity ? result(t.elem, a) : undefined;

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === 0 || v === 0n || v === '') return true;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  return v instanceof Uint8Array && v.length === 0;
}

function first(optional: CelList): CelValue {
  for (const v of optional) return v;
  throw celError('optional.none() dereference');
}

export const optionals = libraryOf([
  [celFunc('optional.of', [CelScalar.DYN], LIST, (v) => celList([v])), (t, a) => (!t && a.length === 1 ? optionalOf(a[0]!) : undefined)],
  [celFunc('optional.none', [], LIST, () => celList([])), (t, a) => (!t && a.length === 0 ? optionalOf(DYN) : undefined)],
  [celFunc('optional.ofNonZeroValue', [CelScalar.DYN], LIST, (v) => celList(isZero(v) ? [] : [v])), (t, a) => (!t && a.length === 1 ? optionalOf(a[0]!) : undefined)],
  [celMethod('hasValue', LIST, [], CelScalar.BOOL, function () {
    return this.size > 0;
  }), onOptional(0, () => BOOL)],
  [celMethod('value', LIST, [], CelScalar.DYN, function () {
    return first(this);
  }), onOptional(0, (elem) => elem)],
  [celMethod('orValue', LIST, [CelScalar.DYN], CelScalar.DYN, function (v) {
    return this.size > 0 ? first(this) : v;
  }), onOptional(1, (elem) => elem)],
  [celMethod('or', LIST, [LIST], LIST, function (other) {
    return this.size > 0 ? this : other;
  }), (t, a) => (t?.kind === 'optional' && a.length === 1 && a[0]!.kind === 'optional' ? t : undefined)],
]);
