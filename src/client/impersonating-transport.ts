/**
 * A transport that acts as another user (client-go's `rest.Config.Impersonate`): every request
 * carries `Impersonate-User`, which the server honours only if the underlying credential may
 * impersonate that user (RBAC verb `impersonate`). A controller manager with one kubeconfig runs
 * each controller under its own identity this way, as kube-controller-manager does with
 * `--use-service-account-credentials`.
 *
 * @example
 *   const client = new KubeClient(new ImpersonatingTransport(https, 'system:controller:namespace-controller'));
 */
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

export class ImpersonatingTransport implements Transport {
  constructor(
    private readonly inner: Transport,
    private readonly user: string,
  ) {}

  send(request: TransportRequest): Promise<TransportResponse> {
    return this.inner.send({ ...request, headers: { ...request.headers, 'impersonate-user': this.user } });
  }

  /** The underlying transport is shared: whoever made it closes it. */
  close(): void {}
}
