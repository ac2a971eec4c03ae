const ZERO_BYTE = Buffer.from([0]);

/**
 * The etcd store's one applicator, in the manner of etcd3's `Namespace`: it puts the store's root
 * (empty in production, a unique root per test run) in front of every key sent to etcd and takes
 * it off every key that comes back, watch events included. Store keys themselves come from
 * `storage/keys.ts`; this only isolates whole stores from one another.
 *
 * @example
 *   const ks = new Keyspace('/run-42');
 *   ks.key('/registry/core/pods/t1/ns1/p')  // <Buffer '/run-42/registry/core/pods/t1/ns1/p'>
 *   ks.strip(kv.key)                       // '/registry/core/pods/t1/ns1/p'
 */
export class Keyspace {
  private readonly root: Buffer;

  constructor(root = '') {
    this.root = Buffer.from(root);
  }

  /** The etcd key of a store key. */
  key(key: string): Buffer {
    return Buffer.concat([this.root, Buffer.from(key)]);
  }

  /** The first etcd key strictly after a store key (for resuming a range after it). */
  keyAfter(key: string): Buffer {
    return Buffer.concat([this.root, Buffer.from(key), ZERO_BYTE]);
  }

  /** etcd's `range_end` for every key starting with a store-key prefix. */
  prefixEnd(prefix: string): Buffer {
    const end = this.key(prefix);
    for (let i = end.length - 1; i >= 0; i -= 1) {
      if (end[i]! < 0xff) {
        end[i]! += 1;
        return end.subarray(0, i + 1);
      }
    }
    return ZERO_BYTE; // empty (or all 0xff): etcd's "to the end of the keyspace"
  }

  /** The store key of an etcd key. */
  strip(key: Buffer): string {
    return key.subarray(this.root.length).toString('utf8');
  }
}
