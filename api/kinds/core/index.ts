/**
 * The core group (`/api/v1`) kinds, in the order discovery lists them.
 */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { configMaps } from './config-map.js';
import { endpoints } from './endpoints.js';
import { events } from './event.js';
import { limitRanges } from './limit-range.js';
import { namespaces } from './namespace.js';
import { nodes } from './node.js';
import { persistentVolumeClaims } from './persistent-volume-claim.js';
import { persistentVolumes } from './persistent-volume.js';
import { pods } from './pod.js';
import { podTemplates } from './pod-template.js';
import { replicationControllers } from './replication-controller.js';
import { resourceQuotas } from './resource-quota.js';
import { secrets } from './secret.js';
import { serviceAccounts } from './service-account.js';
import { services } from './service.js';
import { tenants } from './tenant.js';

export const coreKinds: ResourceDefinition[] = [
  configMaps,
  endpoints,
  events,
  limitRanges,
  namespaces,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  pods,
  podTemplates,
  replicationControllers,
  resourceQuotas,
  secrets,
  serviceAccounts,
  services,
  tenants,
];
