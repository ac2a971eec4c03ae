import { describe, expect, it } from 'vitest';
import { PodIps } from './pod-ips.js';
import { freePodCIDR, nodeAddress } from './simulated-nodes.js';

describe('PodIps', () => {
  it('hands out each address of a node once, per uid, and again after release', () => {
    const ips = new PodIps();
    ips.addNode('n0', '10.244.0.0/24');
    ips.addNode('n1', '10.244.1.0/24');
    expect(ips.allocate('n0', 'a')).toBe('10.244.0.2');
    expect(ips.allocate('n0', 'a')).toBe('10.244.0.2');
    expect(ips.allocate('n0', 'b')).toBe('10.244.0.3');
    expect(ips.allocate('n1', 'c')).toBe('10.244.1.2');
    ips.release('a');
    expect(ips.allocate('n0', 'd')).toBe('10.244.0.2');
  });

  it('keeps IPs pods already hold and refuses a taken or foreign one', () => {
    const ips = new PodIps();
    ips.addNode('n0', '10.244.0.0/24');
    expect(ips.claim('n0', 'a', '10.244.0.7')).toBe(true);
    expect(ips.claim('n0', 'b', '10.244.0.7')).toBe(false);
    expect(ips.claim('n0', 'b', '10.244.9.7')).toBe(false);
    expect(ips.allocate('n0', 'a')).toBe('10.244.0.7');
  });

  it('says when a node is full', () => {
    const ips = new PodIps();
    ips.addNode('n0', '10.244.0.0/24');
    for (let i = 0; i < 253; i += 1) expect(ips.allocate('n0', `u${i}`)).toBeDefined();
    expect(ips.allocate('n0', 'one-too-many')).toBeUndefined();
  });

  it('gives nodes distinct addresses and ranges', () => {
    expect([nodeAddress(0), nodeAddress(254), nodeAddress(255)]).toEqual(['10.240.0.1', '10.240.0.255', '10.240.1.0']);
    expect(freePodCIDR(new Set(['10.244.0.0/24', '10.244.2.0/24']))).toBe('10.244.1.0/24');
    expect(freePodCIDR(new Set(Array.from({ length: 256 }, (_, i) => `10.244.${i}.0/24`)))).toBe('10.245.0.0/24');
  });
});
