/**
 * Every built-in kind outside the core group, in the order kube-apiserver's `/apis` lists their
 * groups (apiregistration, apps, events, autoscaling, batch, networking, policy, rbac, storage,
 * admissionregistration, apiextensions, scheduling, coordination, discovery, flowcontrol: kube-aggregator's group priorities;
 * certificates between batch and networking).
 */
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { admissionregistrationKinds } from './admissionregistration/index.js';
import { apiextensionsKinds } from './apiextensions/index.js';
import { apiregistrationKinds } from './apiregistration/index.js';
import { appsKinds } from './apps/index.js';
import { autoscalingKinds } from './autoscaling/index.js';
import { batchKinds } from './batch/index.js';
import { certificatesKinds } from './certificates/index.js';
import { coordinationKinds } from './coordination/index.js';
import { discoveryKinds } from './discovery/index.js';
import { eventsKinds } from './events/index.js';
import { flowcontrolKinds } from './flowcontrol/index.js';
import { networkingKinds } from './networking/index.js';
import { policyKinds } from './policy/index.js';
import { rbacKinds } from './rbac/index.js';
import { schedulingKinds } from './scheduling/index.js';
import { storageKinds } from './storage/index.js';

export const groupKinds: ResourceDefinition[] = [
  ...apiregistrationKinds,
  ...appsKinds,
  ...eventsKinds,
  ...autoscalingKinds,
  ...batchKinds,
  ...certificatesKinds,
  ...networkingKinds,
  ...policyKinds,
  ...rbacKinds,
  ...storageKinds,
  ...admissionregistrationKinds,
  ...apiextensionsKinds,
  ...schedulingKinds,
  ...coordinationKinds,
  ...discoveryKinds,
  ...flowcontrolKinds,
];
