/** RFC 3339 at second precision, as Kubernetes writes metav1.Time. */
export function nowTimestamp(now = Date.now()): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with microseconds, as Go writes metav1.MicroTime (a Lease's renewTime). */
export function microTime(now = Date.now()): string {
  return new Date(now).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
