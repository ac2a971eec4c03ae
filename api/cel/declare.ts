/**
 * How a library function is declared to the checker beside its runtime implementation, and the
 * types that are strings at run time but types of their own when compiled (a URL, an IP address).
 */
import { celMethod, CelScalar, type celMap, type CelFunc, type CelValue } from '@bufbuild/cel';
import type { CelType } from './types.js';

/** A declaration: the result type for a target and arguments, or undefined when they do not fit. */
export type Declaration = (target: CelType | undefined, args: CelType[]) => CelType | undefined;

export interface Library {
  funcs: CelFunc[];
  declarations: Record<string, Declaration>;
  /** Costs beyond 1 per call, for functions whose work grows with their input. */
  costs: Record<string, (target: CelType | undefined, args: CelType[]) => number>;
}

/**
 * A method of a type that is a string at run time (a URL, an IP address): the runtime function
 * on strings, and a declaration that takes it only on values of that type.
 */
export function opaqueMethod(owner: CelType, name: string, params: Array<(t: CelType) => boolean>, result: CelType, impl: (self: string, ...args: CelValue[]) => CelValue | ReturnType<typeof celMap>): [CelFunc, Declaration] {
  const ownerName = owner.kind === 'object' ? owner.name : '';
  return [
    celMethod(name, CelScalar.STRING, params.map(() => CelScalar.DYN), CelScalar.DYN, function (...args: CelValue[]) {
      return impl(this, ...args) as CelValue;
    }),
    (target, args) => (target?.kind === 'object' && target.name === ownerName && args.length === params.length && params.every((p, i) => p(args[i]!)) ? result : undefined),
  ];
}

/** A library from its functions and their declarations; declarations of one name are tried in turn. */
export function libraryOf(entries: Array<[CelFunc, Declaration]>, costs: Library['costs'] = {}): Library {
  const declarations: Record<string, Declaration> = {};
  for (const [f, declare] of entries) {
    const before = declarations[f.name];
    declarations[f.name] = before ? (t, a) => before(t, a) ?? declare(t, a) : declare;
  }
  return { funcs: entries.map(([f]) => f), declarations, costs };
}

/** A declaration of a global function of one string argument. */
export const ofString = (result: CelType): Declaration => (t, a) => (!t && a.length === 1 && (a[0]!.kind === 'string' || a[0]!.kind === 'dyn') ? result : undefined);

