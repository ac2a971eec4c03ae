/**
 * Each server's identity Lease, as kube-apiserver's (APIServerIdentity): a Lease in the system
 * space's `kube-system` named `apiserver-<hash>`, labelled `apiserver.kubernetes.io/identity:
 * kube-apiserver` and `kubernetes.io/hostname`, its holder the same name, renewed every renew
 * interval (kube's `--identity-lease-renew-interval-seconds`, 10 s) for a duration of
 * `--identity-lease-duration-seconds` (3600 s). Every server also collects the identity Leases
 * that have not been renewed for their duration, once per duration, as kube-apiserver's
 * `apiserverleasegc` controller: a replica that died leaves its Lease behind until then.
 *
 * `kubectl -n kube-system get leases -l apiserver.kubernetes.io/identity=kube-apiserver` (system
 * space) lists the replicas alive.
 *
 * @example
 *   const identity = new IdentityLease({ leases, id: apiserverId(hostname(), '127.0.0.1:6443'), hostname: hostname(), durationSeconds: 3600, renewIntervalMs: 10_000, log });
 *   identity.start();
 *   await identity.stop();
 */
import { createHash } from 'node:crypto';
import type { Lease } from '../../../api/kinds/coordination/lease.js';
import { microTime } from '../../../api/registry/timestamp.js';
import { isConflict, isNotFound } from '../../client/api-status.js';
import type { ResourceClient } from '../../client/resource-client.js';

export const IDENTITY_LEASE_LABEL = 'apiserver.kubernetes.io/identity';
export const KUBE_APISERVER = 'kube-apiserver';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

export const DEFAULT_IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const DEFAULT_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS = 10;

/** RFC 4648 base32 without padding, lower case, as kube's `base32.StdEncoding.WithPadding(NoPadding)` then ToLower. */
export function base32Lower(bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** A field as cryptobyte's AddUint16LengthPrefixed writes it: two bytes of length, then the bytes. */
function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/**
 * The server's id, kube-apiserver's shape: `apiserver-` and the first 16 bytes of SHA-256 over the
 * length-prefixed host name and component, in lower-case base32. kube hashes the host name alone,
 * as one kube-apiserver runs per host; replicas of kube-spaces may share a host (the e2e tests run
 * three on loopback), so the address a replica serves on (`host:port`) joins the host name. The id
 * stays the same across restarts of the same replica, so a restart renews its Lease.
 */
export function apiserverId(hostname: string, servingAddress: string): string {
  const hash = createHash('sha256').update(lengthPrefixed(`${hostname}/${servingAddress}`)).update(lengthPrefixed(KUBE_APISERVER)).digest();
  return `apiserver-${base32Lower(hash.subarray(0, 16))}`;
}

/** kube's isLeaseExpired: no renewTime or duration, or renewed longer than its duration ago. */
export function isExpired(lease: Lease, nowMs: number): boolean {
  const renewTime = lease.spec?.renewTime;
  const duration = lease.spec?.leaseDurationSeconds;
  if (renewTime == null || duration == null) return true;
  return Date.parse(renewTime) + duration * 1000 < nowMs;
}

export interface IdentityLeaseOptions {
  /** Lease client of the system space's `kube-system`. */
  leases: ResourceClient<Lease>;
  id: string;
  hostname: string;
  durationSeconds: number;
  renewIntervalMs: number;
  now?: () => number;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export class IdentityLease {
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: IdentityLeaseOptions) {}

  start(): void {
    const every = (ms: number, task: () => Promise<unknown>) => {
      const timer = setInterval(() => void this.serialized(task), ms);
      timer.unref();
      this.timers.push(timer);
    };
    void this.serialized(() => this.renew());
    every(this.options.renewIntervalMs, () => this.renew());
    every(this.options.durationSeconds * 1000, () => this.collectExpired());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.running;
  }

  /** One task at a time: a slow renewal never overlaps the next. */
  private serialized(task: () => Promise<unknown>): Promise<unknown> {
    this.running = this.running.then(task, task);
    return this.running;
  }

  /** Creates the Lease, or moves its renewTime to now. Failures are logged; the next interval tries again. */
  async renew(): Promise<void> {
    const { leases, id, hostname, durationSeconds, log } = this.options;
    const now = microTime(this.now());
    try {
      let current: Lease | undefined;
      try {
        current = await leases.get(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (current === undefined) {
        await leases.create({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: id, labels: { [IDENTITY_LEASE_LABEL]: KUBE_APISERVER, [HOSTNAME_LABEL]: hostname } },
          spec: { holderIdentity: id, leaseDurationSeconds: durationSeconds, acquireTime: now, renewTime: now },
        });
        log.info({ lease: id }, 'created the identity lease');
        return;
      }
      await leases.update({ ...current, spec: { ...current.spec, holderIdentity: id, leaseDurationSeconds: durationSeconds, renewTime: now } });
    } catch (err) {
      log.error({ err, lease: id }, 'renewing the identity lease failed');
    }
  }

  /** Deletes the identity Leases expired now, each only as it was judged (resourceVersion precondition). */
  async collectExpired(): Promise<number> {
    const { leases, log } = this.options;
    let deleted = 0;
    try {
      const { items } = await leases.list({ labelSelector: `${IDENTITY_LEASE_LABEL}=${KUBE_APISERVER}` });
      for (const lease of items) {
        if (!isExpired(lease, this.now())) continue;
        try {
          await leases.delete(lease.metadata.name!, { preconditions: { resourceVersion: lease.metadata.resourceVersion } });
          deleted += 1;
          log.info({ lease: lease.metadata.name }, 'deleted an expired identity lease');
        } catch (err) {
          // Another replica collected it first, or its owner renewed it since.
          if (!isNotFound(err) && !isConflict(err)) throw err;
        }
      }
    } catch (err) {
      log.error({ err }, 'collecting expired identity leases failed');
    }
    return deleted;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
