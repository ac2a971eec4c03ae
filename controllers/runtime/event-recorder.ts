/**
 * What a controller tells users about what it did: `kubectl get events` and `kubectl describe`
 * show these. Recording never blocks a reconcile and never fails it; the implementation
 * aggregates repeats (kube's series) so a busy controller cannot flood storage
 * (`client-event-recorder.ts`).
 */
import type { KubeObject } from '../../api/registry/object.js';

export interface EventToRecord {
  /**
   * The object the event is about; its metadata.tenant names the space the event is written in.
   * It must carry its kind and apiVersion (objects listed by informers may lack them: set them).
   */
  regarding: KubeObject;
  related?: KubeObject;
  type: 'Normal' | 'Warning';
  /** Why, in UpperCamelCase as kube's controllers word it (`SuccessfulCreate`, `ScalingReplicaSet`). */
  reason: string;
  /** What the controller did or failed to do (`Create`, `Scheduling`, `Binding`). */
  action: string;
  /** Human-readable, as kube's controller words it. */
  note: string;
}

export interface EventRecorder {
  record(event: EventToRecord): void;
}
