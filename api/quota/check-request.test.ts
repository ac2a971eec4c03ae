import { describe, expect, it } from 'vitest';
import type { Pod, ResourceQuota } from '../kinds/core/types.js';
import { evaluatorFor } from './evaluators.js';
import { QuotaRefusal, quotaCharge, quotaUsage } from './check-request.js';
import { addUsage, printUsage, subtractNonNegative, toResourceList, toUsage } from './resource-usage.js';

const quota = (hard: Record<string, string>, used: Record<string, string>, spec: ResourceQuota['spec'] = {}): ResourceQuota => ({
  metadata: { name: 'q', namespace: 'ns' },
  spec: { ...spec, hard },
  status: { hard, used },
});
const pod = (name: string, resources?: { requests?: Record<string, string>; limits?: Record<string, string> }, extra: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
});
const pods = evaluatorFor('', 'pods');
const create = (object: Pod) => ({ operation: 'create' as const, evaluator: pods, object, old: undefined, now: 0 });

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof QuotaRefusal) return err.message;
    throw err;
  }
  throw new Error('no refusal');
}

describe('quota arithmetic', () => {
  it('adds and subtracts quantities exactly, keeping formats', () => {
    const sum = addUsage(toUsage({ memory: '512Mi', cpu: '100m' }), toUsage({ memory: '512Mi', cpu: '0.9' }));
    expect(toResourceList(sum)).toEqual({ memory: '1Gi', cpu: '1' });
    expect(toResourceList(addUsage(toUsage({ memory: '0' }), toUsage({ memory: '1Gi' })))).toEqual({ memory: '1Gi' });
    expect(toResourceList(subtractNonNegative(toUsage({ cpu: '1' }), toUsage({ cpu: '2' })))).toEqual({ cpu: '0' });
    expect(printUsage(toUsage({ pods: '2', 'limits.cpu': '500m' }))).toBe('limits.cpu=500m,pods=2');
  });
});

describe('quotaCharge', () => {
  it('charges a pod and refuses the one past the limit in kube words', () => {
    expect(toResourceList(quotaCharge(quota({ pods: '2' }, { pods: '1' }), create(pod('p2')))!.used)).toEqual({ pods: '2' });
    expect(refusal(() => quotaCharge(quota({ pods: '2' }, { pods: '2' }), create(pod('p3'))))).toBe('exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
  });

  it('names every exceeded resource, sorted, with its requested, used and hard values', () => {
    const q = quota({ 'requests.cpu': '1', 'requests.memory': '1Gi', pods: '10' }, { 'requests.cpu': '800m', 'requests.memory': '512Mi', pods: '1' });
    expect(refusal(() => quotaCharge(q, create(pod('p', { requests: { cpu: '300m', memory: '768Mi' } }))))).toBe(
      'exceeded quota: q, requested: requests.cpu=300m,requests.memory=768Mi, used: requests.cpu=800m,requests.memory=512Mi, limited: requests.cpu=1,requests.memory=1Gi',
    );
  });

  it('asks every container for what a compute quota limits', () => {
    const q = quota({ 'limits.cpu': '2', 'requests.memory': '1Gi' }, { 'limits.cpu': '0', 'requests.memory': '0' });
    const p = pod('p', { requests: { cpu: '100m' } });
    p.spec!.initContainers = [{ name: 'init', image: 'busybox', resources: { limits: { cpu: '1' } } }];
    expect(refusal(() => quotaCharge(q, create(p)))).toBe('failed quota: q: must specify limits.cpu for: c; requests.memory for: c,init');
  });

  it('waits for the controller to know usage', () => {
    expect(refusal(() => quotaCharge(quota({ pods: '2', 'count/pods': '3' }, {}), create(pod('p'))))).toBe('status unknown for quota: q, resources: count/pods,pods');
  });

  it('applies scopes', () => {
    const terminating = quota({ pods: '1' }, { pods: '1' }, { scopes: ['Terminating'] });
    expect(quotaCharge(terminating, create(pod('p')))).toBeUndefined();
    expect(refusal(() => quotaCharge(terminating, create(pod('p', undefined, { activeDeadlineSeconds: 10 }))))).toContain('exceeded quota');
    const bestEffort = quota({ pods: '1' }, { pods: '0' }, { scopes: ['BestEffort'] });
    expect(quotaCharge(bestEffort, create(pod('p', { requests: { cpu: '1' } })))).toBeUndefined();
    expect(quotaCharge(bestEffort, create(pod('p')))).toBeDefined();
    const high = quota({ pods: '1' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
    expect(quotaCharge(high, create(pod('p')))).toBeUndefined();
    expect(quotaCharge(high, create(pod('p', undefined, { priorityClassName: 'high' })))).toBeDefined();
  });

  it('charges the growth of an update only', () => {
    const services = evaluatorFor('', 'services');
    const svc = (type: string) => ({ metadata: { name: 's' }, spec: { type, ports: [{ port: 80 }, { port: 81 }] } });
    const q = quota({ 'services.loadbalancers': '1', 'services.nodeports': '2', services: '5' }, { 'services.loadbalancers': '0', 'services.nodeports': '0', services: '1' });
    const charge = quotaCharge(q, { operation: 'update', evaluator: services, object: svc('LoadBalancer'), old: svc('ClusterIP'), now: 0 });
    expect(toResourceList(charge!.added)).toEqual({ 'services.loadbalancers': '1', 'services.nodeports': '2' });
  });

  it('does not count pods that ended', () => {
    const done = { ...pod('p', { requests: { cpu: '1' } }), status: { phase: 'Succeeded' } };
    const running = pod('r', { requests: { cpu: '500m' }, limits: { cpu: '1' } });
    const q = quota({ pods: '5', 'requests.cpu': '4', 'count/pods': '9' }, {});
    expect(toResourceList(quotaUsage(q, Object.keys(q.spec!.hard!), [{ evaluator: pods, objects: [done, running] }], 0))).toEqual({ pods: '1', 'requests.cpu': '500m', 'count/pods': '2' });
  });

  it('counts any resource as count/<resource>.<group>', () => {
    const widgets = evaluatorFor('example.com', 'widgets');
    const q = quota({ 'count/widgets.example.com': '1' }, { 'count/widgets.example.com': '1' });
    expect(refusal(() => quotaCharge(q, { operation: 'create', evaluator: widgets, object: { metadata: { name: 'w' } }, old: undefined, now: 0 }))).toBe(
      'exceeded quota: q, requested: count/widgets.example.com=1, used: count/widgets.example.com=1, limited: count/widgets.example.com=1',
    );
    expect(widgets.handles('update')).toBe(false);
  });
});
