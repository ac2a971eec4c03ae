/**
 * Field paths as Kubernetes' `field.Path` prints them in error causes: dotted children, `[i]` for
 * list items and `[key]` for map keys.
 *
 * @example
 *   index(child('spec', 'containers'), 0) // 'spec.containers[0]'
 *   key('data', 'app.conf')               // 'data[app.conf]'
 */

/** `parent.name` (or just `name` at the root). */
export function child(parent: string, ...names: string[]): string {
  return [parent, ...names].filter((part) => part !== '').join('.');
}

/** `parent[i]`: an item of a list. */
export function index(parent: string, i: number): string {
  return `${parent}[${i}]`;
}

/** `parent[k]`: a value of a map. */
export function key(parent: string, k: string): string {
  return `${parent}[${k}]`;
}
