/**
 * Kubernetes' order of API versions (apimachinery `version.CompareKubeAwareVersionStrings`): GA
 * before beta before alpha, then the higher major, then the higher minor; versions that are not
 * kube-like (`v1`, `v2beta3`) come last, in reverse lexical order. Discovery lists a CRD group's
 * versions this way (the first is preferred), and a deprecation warning names the best one.
 *
 * @example
 *   ['v1alpha1', 'v1', 'v2beta1', 'foo'].sort(compareKubeAwareVersions) // ['v1', 'v2beta1', 'v1alpha1', 'foo']
 */
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY = { alpha: 0, beta: 1, ga: 2 } as const;

function parse(v: string): { major: number; stability: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), stability: STABILITY[(m[2] as 'alpha' | 'beta' | undefined) ?? 'ga'], minor: m[3] === undefined ? 0 : Number(m[3]) };
}

/** Negative when `a` comes first (has the higher priority), as a sort comparator. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? 1 : -1;
  if (!pa) return 1;
  if (!pb) return -1;
  return pb.stability - pa.stability || pb.major - pa.major || pb.minor - pa.minor;
}
