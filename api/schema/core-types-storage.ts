/**
 * core/v1 persistent storage: the PersistentVolume spec with its sources, and the whole
 * PersistentVolumeClaim, which other kinds embed (StatefulSet claim templates, ephemeral volumes).
 */
import { CORE_V1, coreField, defineCore, resourceList, stringList, stringMap } from './core-types-ref.js';
import { defineKindSchema, metaRef, timeField } from './meta.js';
import { boolean, described, integer, list, map, object, string, type Schema } from './schema.js';

const fsType = (): Schema => string('Filesystem type to mount, e.g. ext4 or xfs.');
const readOnly = (): Schema => boolean('Force the mount read-only. Defaults to false.');
const secretRef = (): Schema => coreField('SecretReference', 'A Secret holding credentials, in any namespace.');

defineCore(
  'SecretReference',
  object('A Secret in any namespace.', { name: string('Name of the Secret.'), namespace: string('Namespace of the Secret.') }, { 'x-kubernetes-map-type': 'atomic' }),
);

defineCore(
  'TypedLocalObjectReference',
  object(
    'A typed reference to an object in the same namespace.',
    {
      apiGroup: string('API group of the referent; empty for the core group.'),
      kind: string('Kind of the referent.'),
      name: string('Name of the referent.'),
    },
    { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'TypedObjectReference',
  object(
    'A typed reference to an object, possibly in another namespace.',
    {
      apiGroup: string('API group of the referent; empty for the core group.'),
      kind: string('Kind of the referent.'),
      name: string('Name of the referent.'),
      namespace: string('Namespace of the referent; needs a ReferenceGrant there.'),
    },
    { required: ['kind', 'name'] },
  ),
);

defineCore(
  'VolumeResourceRequirements',
  object('Storage a volume requests.', {
    limits: resourceList('The most of each resource allowed.'),
    requests: resourceList('The least of each resource required, e.g. storage: 1Gi.'),
  }),
);

defineCore(
  'GlusterfsPersistentVolumeSource',
  object(
    'A GlusterFS volume.',
    {
      endpoints: string('Endpoints object naming the GlusterFS servers.'),
      endpointsNamespace: string('Namespace of that Endpoints object; defaults to the claim’s.'),
      path: string('Volume path.'),
      readOnly: readOnly(),
    },
    { required: ['endpoints', 'path'] },
  ),
);

defineCore(
  'RBDPersistentVolumeSource',
  object(
    'A Ceph RADOS block device.',
    {
      fsType: fsType(),
      image: string('The RADOS image.'),
      keyring: string('Path to the keyring. Defaults to /etc/ceph/keyring.'),
      monitors: stringList('Ceph monitors.'),
      pool: string('The RADOS pool. Defaults to rbd.'),
      readOnly: readOnly(),
      secretRef: secretRef(),
      user: string('The RADOS user. Defaults to admin.'),
    },
    { required: ['monitors', 'image'] },
  ),
);

defineCore(
  'ISCSIPersistentVolumeSource',
  object(
    'An iSCSI disk.',
    {
      chapAuthDiscovery: boolean('Use CHAP authentication for discovery.'),
      chapAuthSession: boolean('Use CHAP authentication for the session.'),
      fsType: fsType(),
      initiatorName: string('Custom iSCSI initiator name.'),
      iqn: string('Target iSCSI qualified name.'),
      iscsiInterface: string('iSCSI interface name. Defaults to "default".'),
      lun: integer('Target LUN number.'),
      portals: stringList('Additional target portals (ip or ip:port).'),
      readOnly: readOnly(),
      secretRef: secretRef(),
      targetPortal: string('Target portal (ip or ip:port).'),
    },
    { required: ['targetPortal', 'iqn', 'lun'] },
  ),
);

defineCore(
  'CinderPersistentVolumeSource',
  object(
    'An OpenStack Cinder volume.',
    { fsType: fsType(), readOnly: readOnly(), secretRef: secretRef(), volumeID: string('ID of the volume.') },
    { required: ['volumeID'] },
  ),
);

defineCore(
  'CephFSPersistentVolumeSource',
  object(
    'A CephFS mount.',
    {
      monitors: stringList('Ceph monitors.'),
      path: string('Root of the mount. Defaults to /.'),
      readOnly: readOnly(),
      secretFile: string('Path to the user’s keyring.'),
      secretRef: secretRef(),
      user: string('The RADOS user. Defaults to admin.'),
    },
    { required: ['monitors'] },
  ),
);

defineCore(
  'FlexPersistentVolumeSource',
  object(
    'A volume provided by an exec-based plugin.',
    { driver: string('Name of the driver.'), fsType: fsType(), options: stringMap('Extra options for the driver.'), readOnly: readOnly(), secretRef: secretRef() },
    { required: ['driver'] },
  ),
);

defineCore(
  'AzureFilePersistentVolumeSource',
  object(
    'An Azure File share.',
    {
      readOnly: readOnly(),
      secretName: string('Secret holding the storage account name and key.'),
      secretNamespace: string('Namespace of that Secret; defaults to the pod’s.'),
      shareName: string('The share.'),
    },
    { required: ['secretName', 'shareName'] },
  ),
);

defineCore(
  'ScaleIOPersistentVolumeSource',
  object(
    'A ScaleIO volume.',
    {
      fsType: { ...fsType(), default: 'xfs' },
      gateway: string('Host of the ScaleIO API gateway.'),
      protectionDomain: string('Protection domain.'),
      readOnly: readOnly(),
      secretRef: secretRef(),
      sslEnabled: boolean('Use SSL to talk to the gateway.'),
      storageMode: { ...string('ThickProvisioned or ThinProvisioned.'), default: 'ThinProvisioned' },
      storagePool: string('Storage pool.'),
      system: string('Name of the storage system.'),
      volumeName: string('Name of an existing volume.'),
    },
    { required: ['gateway', 'system', 'secretRef'] },
  ),
);

defineCore(
  'LocalVolumeSource',
  object('A disk, partition or directory attached to a node.', { fsType: fsType(), path: string('Full path on the node.') }, { required: ['path'] }),
);

defineCore(
  'StorageOSPersistentVolumeSource',
  object('A StorageOS volume.', {
    fsType: fsType(),
    readOnly: readOnly(),
    secretRef: coreField('ObjectReference', 'A Secret holding the API credentials.'),
    volumeName: string('Name of the volume.'),
    volumeNamespace: string('StorageOS namespace of the volume.'),
  }),
);

defineCore(
  'CSIPersistentVolumeSource',
  object(
    'A volume managed by a CSI driver.',
    {
      controllerExpandSecretRef: secretRef(),
      controllerPublishSecretRef: secretRef(),
      driver: string('Name of the CSI driver.'),
      fsType: fsType(),
      nodeExpandSecretRef: secretRef(),
      nodePublishSecretRef: secretRef(),
      nodeStageSecretRef: secretRef(),
      readOnly: readOnly(),
      volumeAttributes: stringMap('Attributes passed to the driver.'),
      volumeHandle: string('The driver’s identifier of the volume.'),
    },
    { required: ['driver', 'volumeHandle'] },
  ),
);

defineCore(
  'VolumeNodeAffinity',
  object('Nodes a volume can be used from.', { required: coreField('NodeSelector', 'Node constraints that must hold.') }),
);

/** The sources a PersistentVolume may use; exactly one is set. */
const persistentVolumeSources: Record<string, Schema> = {
  awsElasticBlockStore: coreField('AWSElasticBlockStoreVolumeSource', 'An AWS EBS volume.'),
  azureDisk: coreField('AzureDiskVolumeSource', 'An Azure data disk.'),
  azureFile: coreField('AzureFilePersistentVolumeSource', 'An Azure File share.'),
  cephfs: coreField('CephFSPersistentVolumeSource', 'A CephFS mount.'),
  cinder: coreField('CinderPersistentVolumeSource', 'An OpenStack Cinder volume.'),
  csi: coreField('CSIPersistentVolumeSource', 'A CSI volume.'),
  fc: coreField('FCVolumeSource', 'A Fibre Channel volume.'),
  flexVolume: coreField('FlexPersistentVolumeSource', 'An exec-plugin volume.'),
  flocker: coreField('FlockerVolumeSource', 'A Flocker dataset.'),
  gcePersistentDisk: coreField('GCEPersistentDiskVolumeSource', 'A GCE persistent disk.'),
  glusterfs: coreField('GlusterfsPersistentVolumeSource', 'A GlusterFS volume.'),
  hostPath: coreField('HostPathVolumeSource', 'A path on the node (single-node testing only).'),
  iscsi: coreField('ISCSIPersistentVolumeSource', 'An iSCSI disk.'),
  local: coreField('LocalVolumeSource', 'Storage attached to one node; needs nodeAffinity.'),
  nfs: coreField('NFSVolumeSource', 'An NFS export.'),
  photonPersistentDisk: coreField('PhotonPersistentDiskVolumeSource', 'A Photon Controller disk.'),
  portworxVolume: coreField('PortworxVolumeSource', 'A Portworx volume.'),
  quobyte: coreField('QuobyteVolumeSource', 'A Quobyte volume.'),
  rbd: coreField('RBDPersistentVolumeSource', 'A Ceph block device.'),
  scaleIO: coreField('ScaleIOPersistentVolumeSource', 'A ScaleIO volume.'),
  storageos: coreField('StorageOSPersistentVolumeSource', 'A StorageOS volume.'),
  vsphereVolume: coreField('VsphereVirtualDiskVolumeSource', 'A vSphere disk.'),
};

defineCore(
  'PersistentVolumeSpec',
  object('A piece of storage offered to claims. Exactly one source is set.', {
    ...persistentVolumeSources,
    accessModes: stringList('How the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.'),
    capacity: resourceList('Size of the volume, as storage: <quantity>.'),
    claimRef: { ...coreField('ObjectReference', 'The claim bound to this volume.'), 'x-kubernetes-map-type': 'granular' },
    mountOptions: stringList('Mount options, e.g. ["ro", "soft"]; not validated.'),
    nodeAffinity: coreField('VolumeNodeAffinity', 'Nodes the volume can be used from.'),
    persistentVolumeReclaimPolicy: string('What happens when the claim goes: Retain (default for manual volumes), Delete or Recycle.'),
    storageClassName: string('StorageClass the volume belongs to; none when empty.'),
    volumeAttributesClassName: string('VolumeAttributesClass of the volume.'),
    volumeMode: string('Filesystem (default) or Block.'),
  }),
);

defineCore(
  'PersistentVolumeStatus',
  object('Where a volume is in its lifecycle.', {
    lastPhaseTransitionTime: timeField('When the phase last changed.'),
    message: string('Why the volume is in this phase.'),
    phase: string('Pending, Available, Bound, Released or Failed.'),
    reason: string('A CamelCase reason for failures.'),
  }),
);

defineCore(
  'PersistentVolumeClaimSpec',
  object('What a claim asks for.', {
    accessModes: stringList('Access modes the volume must support.'),
    dataSource: coreField('TypedLocalObjectReference', 'A VolumeSnapshot or PersistentVolumeClaim to populate the volume from.'),
    dataSourceRef: coreField('TypedObjectReference', 'Any populator object to fill the volume from.'),
    resources: coreField('VolumeResourceRequirements', 'The storage requested, e.g. requests.storage.'),
    selector: described(metaRef('LabelSelector'), 'Labels volumes must have to be bound to this claim.'),
    storageClassName: string('StorageClass to provision from; "" means none.'),
    volumeAttributesClassName: string('VolumeAttributesClass to apply to the volume.'),
    volumeMode: string('Filesystem (default) or Block.'),
    volumeName: string('The volume bound to this claim.'),
  }),
);

defineCore(
  'PersistentVolumeClaimCondition',
  object(
    'One aspect of a claim’s state.',
    {
      lastProbeTime: timeField('When the condition was last checked.'),
      lastTransitionTime: timeField('When it last changed.'),
      message: string('Details.'),
      reason: string('Why it changed.'),
      status: string('True, False or Unknown.'),
      type: string('Resizing, FileSystemResizePending, ModifyVolumeError or ModifyingVolume.'),
    },
    { required: ['type', 'status'] },
  ),
);

defineCore(
  'ModifyVolumeStatus',
  object(
    'Progress of changing a volume’s attributes class.',
    { status: string('Pending, InProgress or Infeasible.'), targetVolumeAttributesClassName: string('The class being applied.') },
    { required: ['status'] },
  ),
);

defineCore(
  'PersistentVolumeClaimStatus',
  object('What a claim got.', {
    accessModes: stringList('Access modes of the bound volume.'),
    allocatedResourceStatuses: map(string('A resize state.'), 'State of resizes by resource.', { 'x-kubernetes-map-type': 'granular' }),
    allocatedResources: resourceList('Resources allocated, including capacity being expanded to.'),
    capacity: resourceList('Actual resources of the bound volume.'),
    conditions: list(coreField('PersistentVolumeClaimCondition', 'One condition.'), 'Current conditions.', { mergeKey: 'type', strategy: 'merge' }),
    currentVolumeAttributesClassName: string('The VolumeAttributesClass in effect.'),
    modifyVolumeStatus: coreField('ModifyVolumeStatus', 'Progress of an attributes class change.'),
    phase: string('Pending, Bound or Lost.'),
  }),
);

defineKindSchema(`${CORE_V1}PersistentVolumeClaim`, { group: '', version: 'v1', kind: 'PersistentVolumeClaim' }, 'A user’s request for a persistent volume.', {
  spec: coreField('PersistentVolumeClaimSpec', 'What the claim asks for.'),
  status: coreField('PersistentVolumeClaimStatus', 'What the claim got. Read-only.'),
});
