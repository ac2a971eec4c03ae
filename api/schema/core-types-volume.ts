/**
 * core/v1 pod volumes: Volume (a name plus exactly one source) and every volume source a pod can
 * use, including those PersistentVolumes share (host path, NFS, cloud disks, ...).
 */
import { coreField, defineCore, stringList, stringMap } from './core-types-ref.js';
import { metaRef } from './meta.js';
import { boolean, described, int64, integer, list, object, quantity, string, type Schema } from './schema.js';

const fsType = (): Schema => string('Filesystem type to mount, e.g. ext4 or xfs.');
const readOnly = (): Schema => boolean('Force the mount read-only. Defaults to false.');
const secretRef = (): Schema => coreField('LocalObjectReference', 'A Secret holding credentials.');
const mode = (what: string): Schema => integer(`Permission bits for ${what}, 0000-0777 (octal in YAML, decimal in JSON).`);

defineCore(
  'KeyToPath',
  object(
    'Projects one key to a file path.',
    { key: string('The key.'), mode: mode('this file'), path: string('Relative path of the file; no ".." elements.') },
    { required: ['key', 'path'] },
  ),
);

defineCore(
  'HostPathVolumeSource',
  object(
    'A file or directory of the node.',
    {
      path: string('Path on the host; symlinks are followed.'),
      type: { ...string('What must exist at the path: "", DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice or BlockDevice.'), default: '' },
    },
    { required: ['path'] },
  ),
);

defineCore(
  'EmptyDirVolumeSource',
  object('A temporary directory that lives as long as the pod.', {
    medium: string('Backing storage: "" for the node’s default, or Memory.'),
    sizeLimit: quantity('The most local storage the directory may use.'),
  }),
);

defineCore(
  'GCEPersistentDiskVolumeSource',
  object(
    'A Google Compute Engine persistent disk.',
    { fsType: fsType(), partition: integer('Partition to mount.'), pdName: string('Name of the disk.'), readOnly: readOnly() },
    { required: ['pdName'] },
  ),
);

defineCore(
  'AWSElasticBlockStoreVolumeSource',
  object(
    'An AWS EBS volume.',
    { fsType: fsType(), partition: integer('Partition to mount.'), readOnly: readOnly(), volumeID: string('ID of the EBS volume.') },
    { required: ['volumeID'] },
  ),
);

defineCore(
  'GitRepoVolumeSource',
  object(
    'Deprecated: a git repository cloned into the volume.',
    { directory: string('Target directory.'), repository: string('Repository URL.'), revision: string('Commit to check out.') },
    { required: ['repository'] },
  ),
);

defineCore(
  'SecretVolumeSource',
  object('A Secret presented as files.', {
    defaultMode: mode('files by default'),
    items: list(coreField('KeyToPath', 'One key.'), 'Keys to project and where; all keys when empty.', { listType: 'atomic' }),
    optional: boolean('Whether the Secret or its keys may be missing.'),
    secretName: string('Name of the Secret in the pod’s namespace.'),
  }),
);

defineCore(
  'NFSVolumeSource',
  object(
    'An NFS export.',
    { path: string('Exported path.'), readOnly: readOnly(), server: string('Hostname or IP of the NFS server.') },
    { required: ['server', 'path'] },
  ),
);

defineCore(
  'ISCSIVolumeSource',
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
  'GlusterfsVolumeSource',
  object(
    'A GlusterFS volume.',
    { endpoints: string('Endpoints object naming the GlusterFS servers.'), path: string('Volume path.'), readOnly: readOnly() },
    { required: ['endpoints', 'path'] },
  ),
);

defineCore(
  'PersistentVolumeClaimVolumeSource',
  object(
    'A PersistentVolumeClaim in the pod’s namespace.',
    { claimName: string('Name of the claim.'), readOnly: readOnly() },
    { required: ['claimName'] },
  ),
);

defineCore(
  'RBDVolumeSource',
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
  'FlexVolumeSource',
  object(
    'A volume provided by an exec-based plugin.',
    { driver: string('Name of the driver.'), fsType: fsType(), options: stringMap('Extra options for the driver.'), readOnly: readOnly(), secretRef: secretRef() },
    { required: ['driver'] },
  ),
);

defineCore(
  'CinderVolumeSource',
  object(
    'An OpenStack Cinder volume.',
    { fsType: fsType(), readOnly: readOnly(), secretRef: secretRef(), volumeID: string('ID of the volume.') },
    { required: ['volumeID'] },
  ),
);

defineCore(
  'CephFSVolumeSource',
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
  'FlockerVolumeSource',
  object('A Flocker dataset.', { datasetName: string('Name of the dataset (deprecated).'), datasetUUID: string('UUID of the dataset.') }),
);

defineCore(
  'DownwardAPIVolumeFile',
  object(
    'One file with pod information.',
    {
      fieldRef: coreField('ObjectFieldSelector', 'A field of the pod: labels, annotations, name or namespace.'),
      mode: mode('this file'),
      path: string('Relative path of the file.'),
      resourceFieldRef: coreField('ResourceFieldSelector', 'A resource limit or request of a container.'),
    },
    { required: ['path'] },
  ),
);

defineCore(
  'DownwardAPIVolumeSource',
  object('Pod information presented as files.', {
    defaultMode: mode('files by default'),
    items: list(coreField('DownwardAPIVolumeFile', 'One file.'), 'The files.', { listType: 'atomic' }),
  }),
);

defineCore(
  'FCVolumeSource',
  object('A Fibre Channel volume.', {
    fsType: fsType(),
    lun: integer('Target LUN number.'),
    readOnly: readOnly(),
    targetWWNs: stringList('Target worldwide names.'),
    wwids: stringList('Volume worldwide identifiers (instead of targetWWNs and lun).'),
  }),
);

defineCore(
  'AzureFileVolumeSource',
  object(
    'An Azure File share.',
    { readOnly: readOnly(), secretName: string('Secret holding the storage account name and key.'), shareName: string('The share.') },
    { required: ['secretName', 'shareName'] },
  ),
);

defineCore(
  'ConfigMapVolumeSource',
  object('A ConfigMap presented as files.', {
    defaultMode: mode('files by default'),
    items: list(coreField('KeyToPath', 'One key.'), 'Keys to project and where; all keys when empty.', { listType: 'atomic' }),
    name: string('Name of the ConfigMap.'),
    optional: boolean('Whether the ConfigMap or its keys may be missing.'),
  }),
);

defineCore(
  'VsphereVirtualDiskVolumeSource',
  object(
    'A vSphere virtual disk.',
    {
      fsType: fsType(),
      storagePolicyID: string('Storage policy ID.'),
      storagePolicyName: string('Storage policy name.'),
      volumePath: string('Path of the vmdk.'),
    },
    { required: ['volumePath'] },
  ),
);

defineCore(
  'QuobyteVolumeSource',
  object(
    'A Quobyte volume.',
    {
      group: string('Group to map access to.'),
      readOnly: readOnly(),
      registry: string('Quobyte registry services, host:port, comma separated.'),
      tenant: string('Quobyte tenant owning the volume.'),
      user: string('User to map access to.'),
      volume: string('Name of the Quobyte volume.'),
    },
    { required: ['registry', 'volume'] },
  ),
);

defineCore(
  'AzureDiskVolumeSource',
  object(
    'An Azure data disk.',
    {
      cachingMode: string('None, ReadOnly or ReadWrite.'),
      diskName: string('Name of the disk.'),
      diskURI: string('URI of the disk.'),
      fsType: { ...fsType(), default: 'ext4' },
      kind: string('Shared, Dedicated or Managed.'),
      readOnly: { ...readOnly(), default: false },
    },
    { required: ['diskName', 'diskURI'] },
  ),
);

defineCore(
  'PhotonPersistentDiskVolumeSource',
  object('A Photon Controller disk.', { fsType: fsType(), pdID: string('ID of the disk.') }, { required: ['pdID'] }),
);

defineCore(
  'PortworxVolumeSource',
  object('A Portworx volume.', { fsType: fsType(), readOnly: readOnly(), volumeID: string('ID of the volume.') }, { required: ['volumeID'] }),
);

defineCore(
  'ScaleIOVolumeSource',
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
  'StorageOSVolumeSource',
  object('A StorageOS volume.', {
    fsType: fsType(),
    readOnly: readOnly(),
    secretRef: secretRef(),
    volumeName: string('Name of the volume.'),
    volumeNamespace: string('StorageOS namespace of the volume.'),
  }),
);

defineCore(
  'CSIVolumeSource',
  object(
    'An ephemeral volume from a CSI driver.',
    {
      driver: string('Name of the CSI driver.'),
      fsType: fsType(),
      nodePublishSecretRef: secretRef(),
      readOnly: readOnly(),
      volumeAttributes: stringMap('Driver-specific settings.'),
    },
    { required: ['driver'] },
  ),
);

defineCore(
  'PersistentVolumeClaimTemplate',
  object(
    'A claim created for an ephemeral volume and deleted with the pod.',
    {
      metadata: described(metaRef('ObjectMeta'), 'Labels and annotations copied to the claim.'),
      spec: coreField('PersistentVolumeClaimSpec', 'Spec of the claim.'),
    },
    { required: ['spec'] },
  ),
);

defineCore(
  'EphemeralVolumeSource',
  object('A volume provisioned for the pod through a claim that lives as long as the pod.', {
    volumeClaimTemplate: coreField('PersistentVolumeClaimTemplate', 'The claim to create, named <pod>-<volume>.'),
  }),
);

defineCore(
  'ImageVolumeSource',
  object('An OCI image or artifact mounted read-only.', {
    pullPolicy: string('Always, Never or IfNotPresent.'),
    reference: string('The image or artifact reference.'),
  }),
);

defineCore(
  'SecretProjection',
  object('A Secret projected into a volume.', {
    items: list(coreField('KeyToPath', 'One key.'), 'Keys to project and where; all keys when empty.', { listType: 'atomic' }),
    name: string('Name of the Secret.'),
    optional: boolean('Whether the Secret or its keys may be missing.'),
  }),
);

defineCore(
  'ConfigMapProjection',
  object('A ConfigMap projected into a volume.', {
    items: list(coreField('KeyToPath', 'One key.'), 'Keys to project and where; all keys when empty.', { listType: 'atomic' }),
    name: string('Name of the ConfigMap.'),
    optional: boolean('Whether the ConfigMap or its keys may be missing.'),
  }),
);

defineCore(
  'DownwardAPIProjection',
  object('Pod information projected into a volume.', {
    items: list(coreField('DownwardAPIVolumeFile', 'One file.'), 'The files.', { listType: 'atomic' }),
  }),
);

defineCore(
  'ServiceAccountTokenProjection',
  object(
    'A service account token projected into a volume and rotated by the kubelet.',
    {
      audience: string('Intended audience of the token. Defaults to the API server.'),
      expirationSeconds: int64('Requested validity. Defaults to 1 hour; at least 10 minutes.'),
      path: string('Path of the token file.'),
    },
    { required: ['path'] },
  ),
);

defineCore(
  'ClusterTrustBundleProjection',
  object(
    'ClusterTrustBundles projected into a volume as one PEM file.',
    {
      labelSelector: described(metaRef('LabelSelector'), 'Select bundles of the signer by label.'),
      name: string('Select one bundle by name.'),
      optional: boolean('Do not block pod startup if no bundle matches.'),
      path: string('Path of the file.'),
      signerName: string('Select the bundles of this signer.'),
    },
    { required: ['path'] },
  ),
);

defineCore(
  'VolumeProjection',
  object('One source of a projected volume.', {
    clusterTrustBundle: coreField('ClusterTrustBundleProjection', 'Trust bundles.'),
    configMap: coreField('ConfigMapProjection', 'A ConfigMap.'),
    downwardAPI: coreField('DownwardAPIProjection', 'Pod information.'),
    secret: coreField('SecretProjection', 'A Secret.'),
    serviceAccountToken: coreField('ServiceAccountTokenProjection', 'A service account token.'),
  }),
);

defineCore(
  'ProjectedVolumeSource',
  object('Several sources combined in one directory.', {
    defaultMode: mode('files by default'),
    sources: list(coreField('VolumeProjection', 'One source.'), 'The sources.', { listType: 'atomic' }),
  }),
);

/** The sources a pod volume may use; exactly one is set (emptyDir when none is). */
const podVolumeSources: Record<string, Schema> = {
  awsElasticBlockStore: coreField('AWSElasticBlockStoreVolumeSource', 'An AWS EBS volume.'),
  azureDisk: coreField('AzureDiskVolumeSource', 'An Azure data disk.'),
  azureFile: coreField('AzureFileVolumeSource', 'An Azure File share.'),
  cephfs: coreField('CephFSVolumeSource', 'A CephFS mount.'),
  cinder: coreField('CinderVolumeSource', 'An OpenStack Cinder volume.'),
  configMap: coreField('ConfigMapVolumeSource', 'A ConfigMap as files.'),
  csi: coreField('CSIVolumeSource', 'An ephemeral CSI volume.'),
  downwardAPI: coreField('DownwardAPIVolumeSource', 'Pod information as files.'),
  emptyDir: coreField('EmptyDirVolumeSource', 'A temporary directory.'),
  ephemeral: coreField('EphemeralVolumeSource', 'A claim-backed volume living as long as the pod.'),
  fc: coreField('FCVolumeSource', 'A Fibre Channel volume.'),
  flexVolume: coreField('FlexVolumeSource', 'An exec-plugin volume.'),
  flocker: coreField('FlockerVolumeSource', 'A Flocker dataset.'),
  gcePersistentDisk: coreField('GCEPersistentDiskVolumeSource', 'A GCE persistent disk.'),
  gitRepo: coreField('GitRepoVolumeSource', 'Deprecated: a cloned git repository.'),
  glusterfs: coreField('GlusterfsVolumeSource', 'A GlusterFS volume.'),
  hostPath: coreField('HostPathVolumeSource', 'A path on the node.'),
  image: coreField('ImageVolumeSource', 'An OCI image or artifact.'),
  iscsi: coreField('ISCSIVolumeSource', 'An iSCSI disk.'),
  nfs: coreField('NFSVolumeSource', 'An NFS export.'),
  persistentVolumeClaim: coreField('PersistentVolumeClaimVolumeSource', 'A PersistentVolumeClaim.'),
  photonPersistentDisk: coreField('PhotonPersistentDiskVolumeSource', 'A Photon Controller disk.'),
  portworxVolume: coreField('PortworxVolumeSource', 'A Portworx volume.'),
  projected: coreField('ProjectedVolumeSource', 'Several sources in one directory.'),
  quobyte: coreField('QuobyteVolumeSource', 'A Quobyte volume.'),
  rbd: coreField('RBDVolumeSource', 'A Ceph block device.'),
  scaleIO: coreField('ScaleIOVolumeSource', 'A ScaleIO volume.'),
  secret: coreField('SecretVolumeSource', 'A Secret as files.'),
  storageos: coreField('StorageOSVolumeSource', 'A StorageOS volume.'),
  vsphereVolume: coreField('VsphereVirtualDiskVolumeSource', 'A vSphere disk.'),
};

defineCore(
  'Volume',
  object(
    'A named volume of a pod, mountable by its containers. Exactly one source is set.',
    { name: string('Name of the volume, a DNS label unique in the pod.'), ...podVolumeSources },
    { required: ['name'] },
  ),
);
