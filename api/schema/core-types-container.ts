/**
 * core/v1 container types: Container and EphemeralContainer with their ports, environment, mounts,
 * resources, probes, lifecycle hooks and security context, and the ContainerStatus kubelets report.
 * Merge keys and list types follow Kubernetes exactly (strategic merge patch and apply depend on them).
 */
import { coreField, defineCore, resourceList, stringList } from './core-types-ref.js';
import { timeField } from './meta.js';
import { boolean, int64, integer, intOrString, list, object, quantity, string, type Schema } from './schema.js';

defineCore(
  'ContainerPort',
  object(
    'A network port of one container.',
    {
      containerPort: integer('Port number on the pod’s IP address (1-65535).'),
      hostIP: string('Host IP to bind the host port to.'),
      hostPort: integer('Port number to expose on the host (1-65535); most containers need none.'),
      name: string('An IANA service name for the port, unique in the pod; services can refer to it.'),
      protocol: { ...string('UDP, TCP or SCTP. Defaults to TCP.'), default: 'TCP' },
    },
    { required: ['containerPort'] },
  ),
);

defineCore(
  'ObjectFieldSelector',
  object(
    'Selects a field of the pod, for the downward API.',
    {
      apiVersion: string('Schema version the fieldPath is written in; defaults to "v1".'),
      fieldPath: string('Path of the field, e.g. metadata.name or status.podIP.'),
    },
    { required: ['fieldPath'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'ResourceFieldSelector',
  object(
    'Selects a resource limit or request of a container, for the downward API.',
    {
      containerName: string('The container; required in volumes, optional in env vars.'),
      divisor: quantity('Unit of the exposed value; defaults to 1.'),
      resource: string('The resource, e.g. limits.cpu or requests.memory.'),
    },
    { required: ['resource'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'ConfigMapKeySelector',
  object(
    'Selects one key of a ConfigMap.',
    {
      key: string('The key to select.'),
      name: string('Name of the ConfigMap.'),
      optional: boolean('Whether the ConfigMap or key may be missing.'),
    },
    { required: ['key'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'SecretKeySelector',
  object(
    'Selects one key of a Secret in the pod’s namespace.',
    {
      key: string('The key to select.'),
      name: string('Name of the Secret.'),
      optional: boolean('Whether the Secret or key may be missing.'),
    },
    { required: ['key'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'EnvVarSource',
  object('Where an environment variable’s value comes from. Exactly one source is set.', {
    configMapKeyRef: coreField('ConfigMapKeySelector', 'A key of a ConfigMap.'),
    fieldRef: coreField('ObjectFieldSelector', 'A field of the pod.'),
    resourceFieldRef: coreField('ResourceFieldSelector', 'A resource limit or request of the container.'),
    secretKeyRef: coreField('SecretKeySelector', 'A key of a Secret.'),
  }),
);

defineCore(
  'EnvVar',
  object(
    'An environment variable of a container.',
    {
      name: string('Name of the variable.'),
      value: string('The value; $(VAR) references to earlier variables are expanded, $$ escapes.'),
      valueFrom: coreField('EnvVarSource', 'Where to read the value from, instead of value.'),
    },
    { required: ['name'] },
  ),
);

defineCore(
  'ConfigMapEnvSource',
  object('A ConfigMap whose keys become environment variables.', {
    name: string('Name of the ConfigMap.'),
    optional: boolean('Whether the ConfigMap may be missing.'),
  }),
);

defineCore(
  'SecretEnvSource',
  object('A Secret whose keys become environment variables.', {
    name: string('Name of the Secret.'),
    optional: boolean('Whether the Secret may be missing.'),
  }),
);

defineCore(
  'EnvFromSource',
  object('A source of many environment variables at once.', {
    configMapRef: coreField('ConfigMapEnvSource', 'The ConfigMap to read.'),
    prefix: string('A prefix added to every variable name.'),
    secretRef: coreField('SecretEnvSource', 'The Secret to read.'),
  }),
);

defineCore(
  'VolumeMount',
  object(
    'Mounts a pod volume into a container.',
    {
      mountPath: string('Where in the container to mount; must not contain ":".'),
      mountPropagation: string('How mounts propagate between host and container: None, HostToContainer or Bidirectional.'),
      name: string('Name of the pod volume.'),
      readOnly: boolean('Mount read-only. Defaults to false.'),
      recursiveReadOnly: string('Whether a read-only mount is read-only recursively: Disabled, IfPossible or Enabled.'),
      subPath: string('A path within the volume to mount instead of its root.'),
      subPathExpr: string('Like subPath, with $(VAR) references expanded from the container’s environment.'),
    },
    { required: ['name', 'mountPath'] },
  ),
);

defineCore(
  'VolumeDevice',
  object(
    'Maps a raw block volume into a container.',
    {
      devicePath: string('Path of the device inside the container.'),
      name: string('Name of a persistentVolumeClaim volume of the pod.'),
    },
    { required: ['name', 'devicePath'] },
  ),
);

defineCore(
  'ResourceClaim',
  object(
    'One dynamically allocated resource a container uses.',
    {
      name: string('Name of an entry of the pod’s spec.resourceClaims.'),
      request: string('One request of the claim; all requests when empty.'),
    },
    { required: ['name'] },
  ),
);

defineCore(
  'ResourceRequirements',
  object('Compute resources a container (or pod) requests and may use at most.', {
    claims: list(coreField('ResourceClaim', 'One claim.'), 'Dynamically allocated resources used by this container.', { listType: 'map', mapKeys: ['name'] }),
    limits: resourceList('The most of each resource the container may use.'),
    requests: resourceList('The least of each resource the container needs; defaults to the limits when only those are set.'),
  }),
);

defineCore(
  'ContainerResizePolicy',
  object(
    'How a container reacts when a resource of it is resized in place.',
    {
      resourceName: string('The resource: cpu or memory.'),
      restartPolicy: string('NotRequired or RestartContainer.'),
    },
    { required: ['resourceName', 'restartPolicy'] },
  ),
);

defineCore('ExecAction', object('Runs a command in the container.', { command: stringList('The command line, run directly (not in a shell).') }));

defineCore(
  'HTTPHeader',
  object(
    'A header of an HTTP probe request.',
    { name: string('Header name.'), value: string('Header value.') },
    { required: ['name', 'value'] },
  ),
);

defineCore(
  'HTTPGetAction',
  object(
    'Sends an HTTP GET request.',
    {
      host: string('Host to connect to; defaults to the pod IP.'),
      httpHeaders: list(coreField('HTTPHeader', 'One header.'), 'Extra request headers.', { listType: 'atomic' }),
      path: string('Path to request.'),
      port: intOrString('Port number or name to connect to.'),
      scheme: string('HTTP or HTTPS. Defaults to HTTP.'),
    },
    { required: ['port'] },
  ),
);

defineCore(
  'TCPSocketAction',
  object(
    'Opens a TCP connection.',
    { host: string('Host to connect to; defaults to the pod IP.'), port: intOrString('Port number or name to connect to.') },
    { required: ['port'] },
  ),
);

defineCore(
  'GRPCAction',
  object(
    'Calls the gRPC health checking protocol.',
    {
      port: integer('Port of the gRPC service.'),
      service: { ...string('Service name to put in the HealthCheckRequest.'), default: '' },
    },
    { required: ['port'] },
  ),
);

defineCore('SleepAction', object('Waits for a while.', { seconds: int64('Seconds to sleep.') }, { required: ['seconds'] }));

const handlerFields = (): Record<string, Schema> => ({
  exec: coreField('ExecAction', 'Run a command.'),
  httpGet: coreField('HTTPGetAction', 'Send an HTTP request.'),
  tcpSocket: coreField('TCPSocketAction', 'Open a TCP connection.'),
});

defineCore(
  'Probe',
  object('A periodic health check of a container.', {
    ...handlerFields(),
    failureThreshold: integer('Consecutive failures that count as failed. Defaults to 3.'),
    grpc: coreField('GRPCAction', 'Call a gRPC health check.'),
    initialDelaySeconds: integer('Seconds after the container starts before the first probe.'),
    periodSeconds: integer('Seconds between probes. Defaults to 10.'),
    successThreshold: integer('Consecutive successes that count as passing after a failure. Defaults to 1.'),
    terminationGracePeriodSeconds: int64('Grace period when the probe fails; overrides the pod’s.'),
    timeoutSeconds: integer('Seconds before a probe times out. Defaults to 1.'),
  }),
);

defineCore(
  'LifecycleHandler',
  object('An action run at a container lifecycle event. Exactly one is set.', {
    ...handlerFields(),
    sleep: coreField('SleepAction', 'Sleep for a while.'),
  }),
);

defineCore(
  'Lifecycle',
  object('Actions run at container lifecycle events.', {
    postStart: coreField('LifecycleHandler', 'Run right after the container is created.'),
    preStop: coreField('LifecycleHandler', 'Run before the container is terminated.'),
    stopSignal: string('The signal used to stop the container.'),
  }),
);

defineCore(
  'Capabilities',
  object('POSIX capabilities to add and drop.', {
    add: stringList('Capabilities to add.'),
    drop: stringList('Capabilities to drop.'),
  }),
);

defineCore(
  'SELinuxOptions',
  object('SELinux labels for a container.', {
    level: string('SELinux level label.'),
    role: string('SELinux role label.'),
    type: string('SELinux type label.'),
    user: string('SELinux user label.'),
  }),
);

defineCore(
  'WindowsSecurityContextOptions',
  object('Windows-specific security settings.', {
    gmsaCredentialSpec: string('The contents of the GMSA credential spec.'),
    gmsaCredentialSpecName: string('Name of the GMSA credential spec to use.'),
    hostProcess: boolean('Run as a Windows host process container.'),
    runAsUserName: string('Windows user to run the entrypoint as.'),
  }),
);

defineCore(
  'SeccompProfile',
  object(
    'The seccomp profile to apply.',
    {
      localhostProfile: string('Path of a profile file on the node; only for type Localhost.'),
      type: string('Localhost, RuntimeDefault or Unconfined.'),
    },
    { required: ['type'] },
  ),
);

defineCore(
  'AppArmorProfile',
  object(
    'The AppArmor profile to apply.',
    {
      localhostProfile: string('Name of a profile loaded on the node; only for type Localhost.'),
      type: string('Localhost, RuntimeDefault or Unconfined.'),
    },
    { required: ['type'] },
  ),
);

defineCore(
  'SecurityContext',
  object('Security settings of one container; they override the pod’s.', {
    allowPrivilegeEscalation: boolean('Whether a process may gain more privileges than its parent.'),
    appArmorProfile: coreField('AppArmorProfile', 'AppArmor profile of the container.'),
    capabilities: coreField('Capabilities', 'Capabilities to add or drop.'),
    privileged: boolean('Run in privileged mode. Defaults to false.'),
    procMount: string('Default or Unmasked /proc.'),
    readOnlyRootFilesystem: boolean('Mount the root filesystem read-only.'),
    runAsGroup: int64('GID to run the entrypoint as.'),
    runAsNonRoot: boolean('Require the container to run as a non-root user.'),
    runAsUser: int64('UID to run the entrypoint as.'),
    seLinuxOptions: coreField('SELinuxOptions', 'SELinux context of the container.'),
    seccompProfile: coreField('SeccompProfile', 'Seccomp profile of the container.'),
    windowsOptions: coreField('WindowsSecurityContextOptions', 'Windows-specific settings.'),
  }),
);

/** The fields Container and EphemeralContainer share (Kubernetes keeps them in sync). */
function containerFields(role: string): Record<string, Schema> {
  return {
    args: stringList('Arguments to the entrypoint; the image’s CMD when empty. $(VAR) references are expanded.'),
    command: stringList('The entrypoint, run directly (not in a shell); the image’s ENTRYPOINT when empty.'),
    env: list(coreField('EnvVar', 'One variable.'), 'Environment variables to set.', { mergeKey: 'name', strategy: 'merge' }),
    envFrom: list(coreField('EnvFromSource', 'One source.'), 'Sources of many environment variables; later sources win.', { listType: 'atomic' }),
    image: string('The container image.'),
    imagePullPolicy: string('Always, Never or IfNotPresent. Defaults to Always for the :latest tag, IfNotPresent otherwise.'),
    lifecycle: coreField('Lifecycle', 'Actions at lifecycle events.'),
    livenessProbe: coreField('Probe', 'Restarts the container when it fails.'),
    name: string(`Name of the ${role}, a DNS label unique among the pod’s containers.`),
    ports: list(coreField('ContainerPort', 'One port.'), 'Ports the container exposes (informational).', {
      mergeKey: 'containerPort',
      strategy: 'merge',
      listType: 'map',
      mapKeys: ['containerPort', 'protocol'],
    }),
    readinessProbe: coreField('Probe', 'Takes the pod out of service endpoints while it fails.'),
    resizePolicy: list(coreField('ContainerResizePolicy', 'One policy.'), 'How the container reacts to in-place resource resizes.', { listType: 'atomic' }),
    resources: coreField('ResourceRequirements', 'Compute resources of the container.'),
    restartPolicy: string('Only for init containers: Always makes it a sidecar that runs alongside the others.'),
    securityContext: coreField('SecurityContext', 'Security settings of the container.'),
    startupProbe: coreField('Probe', 'Holds other probes back until the container has started.'),
    stdin: boolean('Allocate a stdin buffer.'),
    stdinOnce: boolean('Close stdin after the first attach detaches.'),
    terminationMessagePath: string('File the termination message is read from. Defaults to /dev/termination-log.'),
    terminationMessagePolicy: string('File or FallbackToLogsOnError. Defaults to File.'),
    tty: boolean('Allocate a TTY (needs stdin).'),
    volumeDevices: list(coreField('VolumeDevice', 'One device.'), 'Raw block devices to map in.', { mergeKey: 'devicePath', strategy: 'merge' }),
    volumeMounts: list(coreField('VolumeMount', 'One mount.'), 'Pod volumes to mount.', { mergeKey: 'mountPath', strategy: 'merge' }),
    workingDir: string('Working directory; the image’s when empty.'),
  };
}

defineCore('Container', object('A container of a pod.', containerFields('container'), { required: ['name'] }));

defineCore(
  'EphemeralContainer',
  object(
    'A temporary container added to a running pod, e.g. for debugging. Added through the ephemeralcontainers subresource.',
    {
      ...containerFields('ephemeral container'),
      targetContainerName: string('A container whose namespaces (PID, IPC, ...) this one joins.'),
    },
    { required: ['name'] },
  ),
);

defineCore('ContainerStateWaiting', object('A container not running yet.', { message: string('Details.'), reason: string('Why it is waiting.') }));

defineCore('ContainerStateRunning', object('A running container.', { startedAt: timeField('When it last (re)started.') }));

defineCore(
  'ContainerStateTerminated',
  object(
    'A container that has exited.',
    {
      containerID: string('ID of the container, as <runtime>://<id>.'),
      exitCode: integer('Exit status.'),
      finishedAt: timeField('When it exited.'),
      message: string('Details.'),
      reason: string('Why it exited.'),
      signal: integer('Signal that ended it.'),
      startedAt: timeField('When it started.'),
    },
    { required: ['exitCode'] },
  ),
);

defineCore(
  'ContainerState',
  object('The state of a container; at most one member is set.', {
    running: coreField('ContainerStateRunning', 'Running.'),
    terminated: coreField('ContainerStateTerminated', 'Exited.'),
    waiting: coreField('ContainerStateWaiting', 'Waiting to run.'),
  }),
);

defineCore(
  'ResourceHealth',
  object('Health of one allocated device.', { health: string('Healthy, Unhealthy or Unknown.'), resourceID: string('The device.') }, { required: ['resourceID'] }),
);

defineCore(
  'ResourceStatus',
  object(
    'Health of the devices allocated for one resource.',
    {
      name: string('The resource.'),
      resources: list(coreField('ResourceHealth', 'One device.'), 'The devices.', { listType: 'map', mapKeys: ['resourceID'] }),
    },
    { required: ['name'] },
  ),
);

defineCore(
  'LinuxContainerUser',
  object(
    'The Linux identity of a container’s first process.',
    { gid: int64('Primary GID.'), supplementalGroups: list(int64('A GID.'), 'Supplemental groups.', { listType: 'atomic' }), uid: int64('UID.') },
    { required: ['uid', 'gid'] },
  ),
);

defineCore('ContainerUser', object('The identity of a container’s first process.', { linux: coreField('LinuxContainerUser', 'On Linux.') }));

defineCore(
  'VolumeMountStatus',
  object(
    'The state of one mount.',
    {
      mountPath: string('Where it is mounted.'),
      name: string('The volume.'),
      readOnly: boolean('Whether it is read-only.'),
      recursiveReadOnly: string('Whether read-only applies recursively.'),
    },
    { required: ['name', 'mountPath'] },
  ),
);

defineCore(
  'ContainerStatus',
  object(
    'What the node reports about one container.',
    {
      allocatedResources: resourceList('Resources allocated to the container by the node.'),
      allocatedResourcesStatus: list(coreField('ResourceStatus', 'One resource.'), 'Health of allocated devices.', { listType: 'map', mapKeys: ['name'] }),
      containerID: string('ID of the container, as <runtime>://<id>.'),
      image: string('The image it runs.'),
      imageID: string('ID of the image.'),
      lastState: coreField('ContainerState', 'The previous state, after a restart.'),
      name: string('Name of the container.'),
      ready: boolean('Whether it passes its readiness check.'),
      resources: coreField('ResourceRequirements', 'Resources in effect.'),
      restartCount: integer('How many times it has restarted.'),
      started: boolean('Whether it has passed its startup probe.'),
      state: coreField('ContainerState', 'The current state.'),
      stopSignal: string('The signal used to stop it.'),
      user: coreField('ContainerUser', 'The identity it runs as.'),
      volumeMounts: list(coreField('VolumeMountStatus', 'One mount.'), 'Its mounts.', { mergeKey: 'mountPath', strategy: 'merge' }),
    },
    { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
  ),
);
