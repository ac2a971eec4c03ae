/**
 * core/v1 pod types: PodSpec and what it is made of (scheduling constraints, security context,
 * DNS, topology spread), PodTemplateSpec (embedded by every workload kind) and PodStatus.
 */
import { coreField, defineCore, resourceList, stringList, stringMap } from './core-types-ref.js';
import { metaRef, timeField } from './meta.js';
import { boolean, described, int64, integer, list, object, string } from './schema.js';

defineCore(
  'NodeSelectorRequirement',
  object(
    'A requirement on a node label or field.',
    {
      key: string('The label key or field.'),
      operator: string('In, NotIn, Exists, DoesNotExist, Gt or Lt.'),
      values: stringList('Values; one integer for Gt and Lt, none for Exists and DoesNotExist.'),
    },
    { required: ['key', 'operator'] },
  ),
);

defineCore(
  'NodeSelectorTerm',
  object(
    'Requirements a node must meet, ANDed. An empty term matches no node.',
    {
      matchExpressions: list(coreField('NodeSelectorRequirement', 'One requirement.'), 'Requirements on node labels.', { listType: 'atomic' }),
      matchFields: list(coreField('NodeSelectorRequirement', 'One requirement.'), 'Requirements on node fields.', { listType: 'atomic' }),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'NodeSelector',
  object(
    'Nodes matching any of the terms.',
    { nodeSelectorTerms: list(coreField('NodeSelectorTerm', 'One term.'), 'The terms, ORed.', { listType: 'atomic' }) },
    { required: ['nodeSelectorTerms'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'PreferredSchedulingTerm',
  object(
    'A weighted node preference.',
    { preference: coreField('NodeSelectorTerm', 'The nodes preferred.'), weight: integer('Weight, 1-100.') },
    { required: ['weight', 'preference'] },
  ),
);

defineCore(
  'NodeAffinity',
  object('Rules on which nodes the pod may or should run.', {
    preferredDuringSchedulingIgnoredDuringExecution: list(coreField('PreferredSchedulingTerm', 'One preference.'), 'Nodes preferred, by weight.', {
      listType: 'atomic',
    }),
    requiredDuringSchedulingIgnoredDuringExecution: coreField('NodeSelector', 'Nodes the pod must run on.'),
  }),
);

defineCore(
  'PodAffinityTerm',
  object(
    'Pods (by label, in some namespaces) to run near or away from, per topology domain.',
    {
      labelSelector: described(metaRef('LabelSelector'), 'The pods.'),
      matchLabelKeys: stringList('Label keys whose values in this pod are added to the selector (In).'),
      mismatchLabelKeys: stringList('Label keys whose values in this pod are added to the selector (NotIn).'),
      namespaceSelector: described(metaRef('LabelSelector'), 'Namespaces to look in, by label.'),
      namespaces: stringList('Namespaces to look in; the pod’s own when neither this nor namespaceSelector is set.'),
      topologyKey: string('The node label whose values define the domains.'),
    },
    { required: ['topologyKey'] },
  ),
);

defineCore(
  'WeightedPodAffinityTerm',
  object(
    'A weighted pod (anti-)affinity preference.',
    { podAffinityTerm: coreField('PodAffinityTerm', 'The term.'), weight: integer('Weight, 1-100.') },
    { required: ['weight', 'podAffinityTerm'] },
  ),
);

for (const [name, verb] of [
  ['PodAffinity', 'near'],
  ['PodAntiAffinity', 'away from'],
] as const) {
  defineCore(
    name,
    object(`Rules to schedule the pod ${verb} other pods.`, {
      preferredDuringSchedulingIgnoredDuringExecution: list(coreField('WeightedPodAffinityTerm', 'One preference.'), 'Preferences, by weight.', {
        listType: 'atomic',
      }),
      requiredDuringSchedulingIgnoredDuringExecution: list(coreField('PodAffinityTerm', 'One term.'), 'Terms that must all hold.', { listType: 'atomic' }),
    }),
  );
}

defineCore(
  'Affinity',
  object('Scheduling constraints of the pod.', {
    nodeAffinity: coreField('NodeAffinity', 'Constraints on nodes.'),
    podAffinity: coreField('PodAffinity', 'Pods to run near.'),
    podAntiAffinity: coreField('PodAntiAffinity', 'Pods to stay away from.'),
  }),
);

defineCore(
  'Toleration',
  object('Lets the pod run on nodes with a matching taint.', {
    effect: string('Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; all when empty.'),
    key: string('Taint key to match; all keys when empty (operator must be Exists).'),
    operator: string('Exists or Equal. Defaults to Equal.'),
    tolerationSeconds: int64('For NoExecute: how long the pod stays bound after the taint appears; forever when unset.'),
    value: string('Taint value to match; empty for Exists.'),
  }),
);

defineCore(
  'HostAlias',
  object('An /etc/hosts entry of the pod.', { hostnames: stringList('Host names for the IP.'), ip: string('The IP address.') }, { required: ['ip'] }),
);

defineCore('PodDNSConfigOption', object('A resolver option.', { name: string('Option name.'), value: string('Option value.') }));

defineCore(
  'PodDNSConfig',
  object('DNS settings merged into those DNSPolicy generates.', {
    nameservers: stringList('Name server IPs, at most 3 in total.'),
    options: list(coreField('PodDNSConfigOption', 'One option.'), 'Resolver options.', { listType: 'atomic' }),
    searches: stringList('Search domains.'),
  }),
);

defineCore('PodReadinessGate', object('An extra pod condition required for readiness.', { conditionType: string('The condition type.') }, { required: ['conditionType'] }));

defineCore(
  'TopologySpreadConstraint',
  object(
    'How to spread matching pods across topology domains.',
    {
      labelSelector: described(metaRef('LabelSelector'), 'The pods counted.'),
      matchLabelKeys: stringList('Label keys whose values in this pod are added to the selector.'),
      maxSkew: integer('The largest allowed difference in matching pods between domains.'),
      minDomains: integer('Minimum number of eligible domains.'),
      nodeAffinityPolicy: string('Honor or Ignore the pod’s node affinity when counting. Defaults to Honor.'),
      nodeTaintsPolicy: string('Honor or Ignore node taints when counting. Defaults to Ignore.'),
      topologyKey: string('The node label whose values define the domains.'),
      whenUnsatisfiable: string('DoNotSchedule or ScheduleAnyway.'),
    },
    { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
  ),
);

defineCore('Sysctl', object('A kernel parameter.', { name: string('Name of the parameter.'), value: string('Its value.') }, { required: ['name', 'value'] }));

defineCore(
  'PodSecurityContext',
  object('Security settings of the whole pod; containers may override some.', {
    appArmorProfile: coreField('AppArmorProfile', 'AppArmor profile of all containers.'),
    fsGroup: int64('A group that owns supported volumes and is added to every container.'),
    fsGroupChangePolicy: string('OnRootMismatch or Always: when to change volume ownership.'),
    runAsGroup: int64('GID to run entrypoints as.'),
    runAsNonRoot: boolean('Require containers to run as a non-root user.'),
    runAsUser: int64('UID to run entrypoints as.'),
    seLinuxChangePolicy: string('How SELinux labels are applied to volumes: Recursive or MountOption.'),
    seLinuxOptions: coreField('SELinuxOptions', 'SELinux context of all containers.'),
    seccompProfile: coreField('SeccompProfile', 'Seccomp profile of all containers.'),
    supplementalGroups: list(int64('A GID.'), 'Extra groups of the first process in each container.', { listType: 'atomic' }),
    supplementalGroupsPolicy: string('Merge or Strict: whether groups from the image are added.'),
    sysctls: list(coreField('Sysctl', 'One parameter.'), 'Namespaced kernel parameters.', { listType: 'atomic' }),
    windowsOptions: coreField('WindowsSecurityContextOptions', 'Windows-specific settings.'),
  }),
);

defineCore('PodOS', object('The operating system of the pod.', { name: string('linux or windows.') }, { required: ['name'] }));

defineCore('PodSchedulingGate', object('A gate that holds the pod back from scheduling.', { name: string('Name of the gate.') }, { required: ['name'] }));

defineCore(
  'PodResourceClaim',
  object(
    'A ResourceClaim the pod needs, named for its containers.',
    {
      name: string('Name of the entry, a DNS label.'),
      resourceClaimName: string('An existing ResourceClaim in the pod’s namespace.'),
      resourceClaimTemplateName: string('A ResourceClaimTemplate to create a claim from.'),
    },
    { required: ['name'] },
  ),
);

defineCore(
  'PodSpec',
  object(
    'The desired behavior of a pod.',
    {
      activeDeadlineSeconds: int64('Seconds the pod may run before it is failed.'),
      affinity: coreField('Affinity', 'Scheduling constraints.'),
      automountServiceAccountToken: boolean('Whether to mount a service account token.'),
      containers: list(coreField('Container', 'One container.'), 'The containers of the pod; at least one.', { mergeKey: 'name', strategy: 'merge' }),
      dnsConfig: coreField('PodDNSConfig', 'Extra DNS settings.'),
      dnsPolicy: string('ClusterFirst (default), ClusterFirstWithHostNet, Default or None.'),
      enableServiceLinks: boolean('Whether to inject service environment variables. Defaults to true.'),
      ephemeralContainers: list(coreField('EphemeralContainer', 'One ephemeral container.'), 'Temporary containers, added through a subresource.', {
        mergeKey: 'name',
        strategy: 'merge',
      }),
      hostAliases: list(coreField('HostAlias', 'One entry.'), 'Extra /etc/hosts entries.', { mergeKey: 'ip', strategy: 'merge' }),
      hostIPC: boolean('Use the host’s IPC namespace.'),
      hostNetwork: boolean('Use the host’s network namespace.'),
      hostPID: boolean('Use the host’s PID namespace.'),
      hostUsers: boolean('Use the host’s user namespace. Defaults to true.'),
      hostname: string('Hostname of the pod; a system value when empty.'),
      imagePullSecrets: list(coreField('LocalObjectReference', 'One Secret.'), 'Secrets used to pull images.', { mergeKey: 'name', strategy: 'merge' }),
      initContainers: list(coreField('Container', 'One init container.'), 'Containers run in order before the others start.', {
        mergeKey: 'name',
        strategy: 'merge',
      }),
      nodeName: string('The node the pod is bound to; skips the scheduler when set.'),
      nodeSelector: stringMap('Labels a node must have to run the pod.', true),
      os: coreField('PodOS', 'The operating system of the pod.'),
      overhead: resourceList('Resources of the pod sandbox, set from its RuntimeClass.'),
      preemptionPolicy: string('PreemptLowerPriority (default) or Never.'),
      priority: integer('Priority value, set from priorityClassName.'),
      priorityClassName: string('The PriorityClass of the pod.'),
      readinessGates: list(coreField('PodReadinessGate', 'One gate.'), 'Extra conditions required for readiness.', { listType: 'atomic' }),
      resourceClaims: list(coreField('PodResourceClaim', 'One claim.'), 'ResourceClaims the pod needs.', {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
      }),
      resources: coreField('ResourceRequirements', 'Resources of the whole pod.'),
      restartPolicy: string('Always (default), OnFailure or Never.'),
      runtimeClassName: string('The RuntimeClass to run the pod with.'),
      schedulerName: string('The scheduler to dispatch the pod. Defaults to default-scheduler.'),
      schedulingGates: list(coreField('PodSchedulingGate', 'One gate.'), 'Gates holding the pod back from scheduling.', { mergeKey: 'name', strategy: 'merge' }),
      securityContext: coreField('PodSecurityContext', 'Pod-level security settings.'),
      serviceAccount: string('Deprecated alias of serviceAccountName.'),
      serviceAccountName: string('The ServiceAccount the pod runs as.'),
      setHostnameAsFQDN: boolean('Use the fully qualified name as the hostname.'),
      shareProcessNamespace: boolean('Share one PID namespace between the containers.'),
      subdomain: string('Subdomain of the pod’s fully qualified name.'),
      terminationGracePeriodSeconds: int64('Seconds to terminate gracefully. Defaults to 30.'),
      tolerations: list(coreField('Toleration', 'One toleration.'), 'Taints the pod tolerates.', { listType: 'atomic' }),
      topologySpreadConstraints: list(coreField('TopologySpreadConstraint', 'One constraint.'), 'How to spread pods across domains.', {
        mergeKey: 'topologyKey',
        strategy: 'merge',
        listType: 'map',
        mapKeys: ['topologyKey', 'whenUnsatisfiable'],
      }),
      volumes: list(coreField('Volume', 'One volume.'), 'Volumes the containers can mount.', { mergeKey: 'name', strategy: 'merge,retainKeys' }),
    },
    { required: ['containers'] },
  ),
);

defineCore(
  'PodTemplateSpec',
  object('A template for pods, embedded in workload kinds.', {
    metadata: described(metaRef('ObjectMeta'), 'Metadata of the pods created from the template.'),
    spec: coreField('PodSpec', 'Spec of the pods created from the template.'),
  }),
);

defineCore(
  'PodCondition',
  object(
    'One aspect of a pod’s state.',
    {
      lastProbeTime: timeField('When the condition was last checked.'),
      lastTransitionTime: timeField('When it last changed.'),
      message: string('Details.'),
      observedGeneration: int64('The pod generation the condition reflects.'),
      reason: string('Why it changed.'),
      status: string('True, False or Unknown.'),
      type: string('PodScheduled, Initialized, ContainersReady, Ready, or a custom type.'),
    },
    { required: ['type', 'status'] },
  ),
);

defineCore('PodIP', object('An IP address of the pod.', { ip: string('The address.') }, { required: ['ip'] }));

defineCore('HostIP', object('An IP address of the pod’s node.', { ip: string('The address.') }, { required: ['ip'] }));

defineCore(
  'PodResourceClaimStatus',
  object(
    'The claim generated for a pod’s resource claim entry.',
    { name: string('The entry in spec.resourceClaims.'), resourceClaimName: string('The generated claim.') },
    { required: ['name'] },
  ),
);

defineCore(
  'PodStatus',
  object('The observed state of a pod. Written by the system.', {
    conditions: list(coreField('PodCondition', 'One condition.'), 'Current conditions.', { mergeKey: 'type', strategy: 'merge' }),
    containerStatuses: list(coreField('ContainerStatus', 'One container.'), 'One entry per container.', { listType: 'atomic' }),
    ephemeralContainerStatuses: list(coreField('ContainerStatus', 'One container.'), 'One entry per ephemeral container.', { listType: 'atomic' }),
    hostIP: string('IP of the node the pod runs on.'),
    hostIPs: list(coreField('HostIP', 'One address.'), 'IPs of the node.', { mergeKey: 'ip', strategy: 'merge', listType: 'atomic' }),
    initContainerStatuses: list(coreField('ContainerStatus', 'One container.'), 'One entry per init container.', { listType: 'atomic' }),
    message: string('Why the pod is in this state.'),
    nominatedNodeName: string('The node the pod preempted others on and may be scheduled to.'),
    observedGeneration: int64('The pod generation this status reflects.'),
    phase: string('Pending, Running, Succeeded, Failed or Unknown.'),
    podIP: string('IP of the pod.'),
    podIPs: list(coreField('PodIP', 'One address.'), 'IPs of the pod, one per family.', { mergeKey: 'ip', strategy: 'merge' }),
    qosClass: string('BestEffort, Burstable or Guaranteed, from the resource requirements.'),
    reason: string('A CamelCase reason for the state, e.g. Evicted.'),
    resize: string('Progress of an in-place resize.'),
    resourceClaimStatuses: list(coreField('PodResourceClaimStatus', 'One claim.'), 'Claims generated for the pod.', {
      mergeKey: 'name',
      strategy: 'merge,retainKeys',
    }),
    startTime: timeField('When the kubelet accepted the pod.'),
  }),
);
