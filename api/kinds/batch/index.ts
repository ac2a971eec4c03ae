/** batch/v1: run-to-completion workloads. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { cronJobs } from './cronjob.js';
import { jobs } from './job.js';

export { cronJobs, jobs };

export const batchKinds: ResourceDefinition[] = [jobs, cronJobs];
