import { ClientClosedError, EtcdError, GRPCDeadlineExceededError, GRPCInternalError, GRPCOutOfRangeError, GRPCResourceExhastedError, GRPCUnavailableError } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../errors.js';
import { isResponseTooLargeError, toStorageError, toWriteError } from './errors.js';

describe('toStorageError', () => {
  it.each([
    // Messages as etcd3 hands them over (seen against etcd 3.4.23).
    { err: new GRPCOutOfRangeError('11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted'), code: 'TooOld', revision: 42 },
    { err: new GRPCOutOfRangeError('11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision'), code: 'Unavailable', revision: 0 },
    { err: new GRPCUnavailableError('14 UNAVAILABLE: No connection established'), code: 'Unavailable', revision: 0 },
    { err: new ClientClosedError('KV'), code: 'Unavailable', revision: 0 },
    { err: new Error('Execution prevented because the circuit breaker is open'), code: 'Unavailable', revision: 0 },
    { err: 'not even an Error', code: 'Unavailable', revision: 0 },
  ])('casts $err to $code', ({ err, code, revision }) => {
    const cast = toStorageError(err, '/registry/k', 42);
    expect(cast).toBeInstanceOf(StorageError);
    expect(cast).toMatchObject({ code, key: '/registry/k', revision });
  });

  it('passes a StorageError through unchanged', () => {
    const err = new StorageError('Conflict', '/registry/k', 'conflict', 7);
    expect(toStorageError(err, '/other')).toBe(err);
  });

  it('tells a response over the receive limit from other exhaustion', () => {
    expect(isResponseTooLargeError(new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: Received message larger than max (300 vs. 200)'))).toBe(true);
    expect(isResponseTooLargeError(new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: etcdserver: too many requests'))).toBe(false);
  });
});

describe('toWriteError', () => {
  it.each([
    // may have been applied: the reply, not the request, was lost
    { err: new EtcdError('14 UNAVAILABLE: etcdserver: request timed out'), code: 'OutcomeUnknown' },
    { err: new EtcdError('14 UNAVAILABLE: etcdserver: request timed out, possibly due to connection lost'), code: 'OutcomeUnknown' },
    { err: new EtcdError('14 UNAVAILABLE: etcdserver: leader changed'), code: 'OutcomeUnknown' },
    { err: new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded'), code: 'OutcomeUnknown' },
    { err: new GRPCUnavailableError('14 UNAVAILABLE: Connection dropped'), code: 'OutcomeUnknown' },
    { err: new GRPCInternalError('13 INTERNAL: Received RST_STREAM with code 2 triggered by internal client error: read ECONNRESET'), code: 'OutcomeUnknown' },
    // nothing was sent, or etcd refused it
    { err: new GRPCUnavailableError('14 UNAVAILABLE: No connection established'), code: 'Unavailable' },
    { err: new ClientClosedError('KV'), code: 'Unavailable' },
    { err: new GRPCOutOfRangeError('11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted'), code: 'TooOld' },
  ])('casts $err to $code', ({ err, code }) => {
    expect(toWriteError(err, '/registry/k')).toMatchObject({ code, key: '/registry/k' });
  });

  it('passes a StorageError through unchanged', () => {
    const err = new StorageError('AlreadyExists', '/registry/k', 'exists');
    expect(toWriteError(err, '/other')).toBe(err);
  });
});
