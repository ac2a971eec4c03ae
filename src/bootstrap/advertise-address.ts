/**
 * The address the `kubernetes` Endpoints advertise, chosen as kube-apiserver chooses
 * `--advertise-address` when it is not given: the bind address when it is a specific address,
 * else an address of the host (`ChooseHostInterface`). Loopback, unspecified and link-local
 * addresses are never advertised: Endpoints may not hold them, and kube-apiserver's reconciler
 * fails on them ("may not be in the loopback range"), so on a loopback-only host there is none.
 *
 * @example
 *   advertiseAddress('127.0.0.1') // '192.0.2.2' on a host whose eth0 has 192.0.2.2, else undefined
 */
import { isIP } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { validateNonSpecialIP } from '../../api/validation/ip.js';

const advertisable = (ip: string): boolean => isIP(ip) !== 0 && validateNonSpecialIP(ip, '').length === 0;

export function advertiseAddress(bindAddress: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string | undefined {
  if (advertisable(bindAddress)) return bindAddress;
  const addresses = Object.values(interfaces).flatMap((list) => list ?? []).filter((a) => !a.internal && advertisable(a.address));
  // IPv4 first, as kube-apiserver prefers it.
  return (addresses.find((a) => a.family === 'IPv4') ?? addresses[0])?.address;
}
