/** A routed, authenticated API request as its route sees it (RouteCall), one object per request. */

import type { Environment } from '../domain/environment.js';
import type { Account, Store } from '../state/store.js';
import type { ApiRequest } from './apiExchange.js';
import type { RouteCall } from './apiRoute.js';
import { authenticate } from './checks/authenticate.js';
import { type ResponseSettings, apiBase, docsBase } from './respond.js';

/**
 * A class rather than an object literal with a getter and two closures: the request path makes one per request, and
 * its methods live on the prototype, so a call allocates one object and no closure context.
 */
export class ApiCall implements RouteCall {
  private base: string | undefined;
  private docs: string | undefined;

  constructor(
    readonly request: ApiRequest,
    readonly environment: Environment,
    readonly id: string,
    private readonly store: Store,
    private readonly apiKey: string | undefined,
    private readonly settings: ResponseSettings,
  ) {}

  /**
   * Looked up again at each use: a reset or snapshot import while the request waited (injected latency, a body still
   * arriving) replaces the account, and the request must change the state it meets, not the one it left.
   */
  get account(): Account {
    return authenticate(this.store, this.apiKey);
  }

  apiBase(): string {
    return (this.base ??= apiBase(this.request, this.settings, this.environment));
  }

  docsBase(): string {
    return (this.docs ??= docsBase(this.request, this.settings));
  }
}
