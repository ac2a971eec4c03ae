import { describe, expect, it } from 'vitest';
import { evaluatePod, forbiddenDetail, type CheckedPodSpec, type LevelVersion } from './checks.js';

const restricted: LevelVersion = { level: 'restricted', version: 'latest' };
const baseline: LevelVersion = { level: 'baseline', version: 'latest' };
const detail = (lv: LevelVersion, spec: CheckedPodSpec, annotations?: Record<string, string>) => forbiddenDetail(evaluatePod(lv, { name: 'p', annotations }, spec));

/** A pod the restricted level accepts. */
const good = (): CheckedPodSpec => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
});

describe('Pod Security Standards checks', () => {
  it('lets a hardened pod through every level', () => {
    expect(evaluatePod(restricted, {}, good())).toEqual([]);
    expect(evaluatePod({ level: 'privileged', version: 'latest' }, {}, { hostPID: true })).toEqual([]);
  });

  it('words a plain pod in restricted as upstream, in upstream order', () => {
    expect(detail(restricted, { containers: [{ name: 'c' }] })).toBe(
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('puts baseline checks first: a privileged pod in restricted', () => {
    const spec: CheckedPodSpec = { containers: [{ name: 'c', securityContext: { privileged: true } }] };
    expect(detail(restricted, spec).startsWith('privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (')).toBe(true);
    expect(detail(baseline, spec)).toBe('privileged (container "c" must not set securityContext.privileged=true)');
  });

  it('checks each baseline field with its words', () => {
    const cases: Array<[CheckedPodSpec, string, Record<string, string>?]> = [
      [{ hostNetwork: true, hostPID: true, hostIPC: true }, 'host namespaces (hostIPC, hostNetwork, hostPID)'],
      [{ volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'h2', hostPath: { path: '/x' } }] }, 'hostPath volumes (volumes "h", "h2")'],
      [{ containers: [{ name: 'a', ports: [{ hostPort: 80 }, { hostPort: 8080 }] }, { name: 'b', ports: [{ hostPort: 80 }] }] }, 'hostPort (containers "a", "b" use hostPorts 80, 8080)'],
      [{ containers: [{ name: 'a', securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN', 'SYS_TIME'] } } }] }, 'non-default capabilities (container "a" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)'],
      [{ containers: [{ name: 'a', securityContext: { procMount: 'Unmasked' } }] }, 'procMount (container "a" must not set securityContext.procMount to "Unmasked")'],
      [{ securityContext: { seLinuxOptions: { type: 'spc_t', user: 'u' } } }, 'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)'],
      [{ securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [{ name: 'a', securityContext: { seccompProfile: { type: 'Unconfined' } } }] }, 'seccompProfile (pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined")'],
      [{ securityContext: { sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_syncookies' }, { name: 'vm.swappiness' }] } }, 'forbidden sysctls (kernel.msgmax, vm.swappiness)'],
      [{ containers: [{ name: 'a', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] }, 'forbidden AppArmor profile (container "a" must not set AppArmor profile type to "Unconfined")'],
      [{ containers: [{ name: 'a' }] }, 'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/a="unconfined"")', { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' }],
      [{ securityContext: { windowsOptions: { hostProcess: true } } }, 'hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)'],
    ];
    for (const [spec, text, annotations] of cases) expect(detail(baseline, spec, annotations)).toBe(text);
  });

  it('checks each restricted field with its words', () => {
    const withContainer = (sc: Record<string, unknown>): CheckedPodSpec => {
      const spec = good();
      spec.containers![0]!.securityContext = { ...spec.containers![0]!.securityContext, ...sc };
      return spec;
    };
    expect(detail(restricted, withContainer({ runAsUser: 0 }))).toBe('runAsUser=0 (container "c" must not set runAsUser=0)');
    expect(detail(restricted, withContainer({ runAsNonRoot: false }))).toBe('runAsNonRoot != true (container "c" must not set securityContext.runAsNonRoot=false)');
    expect(detail(restricted, withContainer({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] } }))).toBe(
      'non-default capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add), unrestricted capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
    );
    const volumes = good();
    volumes.volumes = [{ name: 'ok', configMap: { name: 'x' } }, { name: 'n', nfs: { server: 's' } }, { name: 'h', hostPath: { path: '/' } }];
    expect(detail(restricted, volumes)).toBe('restricted volume types (volumes "n", "h" use restricted volume types "hostPath", "nfs")');
  });

  it('applies the checks of the version asked for', () => {
    const spec = good();
    spec.containers![0]!.securityContext = { allowPrivilegeEscalation: false, runAsUser: 0 };
    expect(detail({ level: 'restricted', version: { minor: 21 } }, spec)).toBe('');
    expect(detail({ level: 'restricted', version: { minor: 23 } }, spec)).toContain('runAsUser=0');
    expect(detail({ level: 'baseline', version: { minor: 26 } }, { securityContext: { sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start' }] } })).toBe('forbidden sysctls (net.ipv4.ip_unprivileged_port_start)');
  });
});
