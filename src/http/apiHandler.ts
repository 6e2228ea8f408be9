/**
 * The /v1 and /sandbox/v1 API as one function of a request record, served alike by hono and the node fast lane:
 * the body limit, the HTTPS rule, routing (hono's router), authentication, faults, the route itself, error
 * rendering from the catalogue and the request journal, in the order the hono middleware chain had them.
 */

import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { tryDecodeURIComponent } from 'hono/utils/url';
import { type Environment, apiEnvironment, apiPrefixes, defaultEnvironment } from '../domain/environment.js';
import { recipientOperations } from '../domain/apiOperations.js';
import type { Core } from '../engine/core.js';
import type { RequestJournal } from '../journal/requestJournal.js';
import type { ApiAnswer, ApiRequest, Answering } from './apiExchange.js';
import type { ApiRoute, MethodList, RouteCall } from './apiRoute.js';
import { ApiCall } from './apiCall.js';
import type { Account } from '../state/store.js';
import { checkDeclaredLength, decodeBody } from './body.js';
import { importRunning } from '../engine/importGate.js';
import type { RequestFields } from '../domain/signing.js';
import { PendingRecord, journalKeepsBody } from './journalRecord.js';
import { authenticate } from './checks/authenticate.js';
import { basicUsername } from './checks/basicUsername.js';
import { type FaultSource, announceFault, faultGuard } from './checks/faultGuard.js';
import { networkAnswer } from './networkAnswer.js';
import { networkHeaderName, parseNetworkHeader } from '../engine/scenario/networkFaults.js';
import { notAllowed } from './checks/notAllowed.js';
import { requireHttps } from './checks/requireHttps.js';
import { answerableError, errorAnswer, responseSettings, routeNotFound } from './respond.js';
import { balanceRoutes } from './routes/balance.js';
import { messagesRoutes } from './routes/messages.js';

export type ApiHandler = (request: ApiRequest) => Answering;

export interface ApiDeps {
  core: Core;
  faults: FaultSource;
  journal: RequestJournal;
}

export function createApiHandler({ core, faults, journal }: ApiDeps): ApiHandler {
  const { options, store, clock, imports } = core;
  const settings = responseSettings(options);
  const fault = faultGuard(faults, core.events, core.wallTimers);
  const routes = [
    ...balanceRoutes(),
    ...messagesRoutes({
      messaging: core.messaging,
      outcomeHeader: options.outcomeHeader,
      settings,
      maxBodySize: options.maxBodySize,
      requireSignatureOnPatch: options.requireSignatureOnPatch,
      noMessagesStatus: options.noMessagesStatus,
      imports,
    }),
  ];
  // hono's own default router, as the app used before: the first route listed that matches answers (balance before /messages/:message_id).
  const router = new SmartRouter<ApiRoute | MethodList>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const route of routes) router.add('method' in route ? route.method : 'ALL', route.path, route);
  // The router's answer for a path without parameters never changes, so the hot ones (balance, send) are kept:
  // bounded by the routes listed, since only a matched route of a method it serves is kept.
  // By method, then path: a key joining the two was a string built and hashed again on every request.
  const fixedMatches = new Map<string, Map<string, { route: ApiRoute }>>();
  const match = (method: string, path: string): { route: ApiRoute | MethodList; id?: string } | undefined => {
    const fixed = fixedMatches.get(method)?.get(path);
    if (fixed !== undefined) return fixed;
    const [matches, stash] = router.match(method, path);
    const matched = matches[0];
    if (matched === undefined) return undefined;
    const [route, params] = matched;
    const idAt = params.message_id;
    if (idAt === undefined) {
      const found = { route };
      if ('method' in route) {
        let byPath = fixedMatches.get(method);
        if (byPath === undefined) fixedMatches.set(method, (byPath = new Map()));
        byPath.set(path, found as { route: ApiRoute });
      }
      return found;
    }
    return { route, id: tryDecodeURIComponent(stash ? (stash[idAt as number] as string) : String(idAt)) };
  };

  const failure = (request: ApiRequest, error: unknown): ApiAnswer =>
    errorAnswer(request, answerableError(error, request.method, request.path), settings);

  const serve = (route: ApiRoute, call: RouteCall): Answering => {
    try {
      const answer = route.serve(call);
      return answer instanceof Promise ? answer.catch((error: unknown) => failure(call.request, error)) : answer;
    } catch (error) {
      return failure(call.request, error);
    }
  };

  /**
   * `run`, for a request that waited (a fault's latency, its body) and so may resume while a snapshot import puts its
   * state in place: then it is refused as one arriving then is, and changes nothing.
   */
  const resumed = (request: ApiRequest, run: () => Answering): Answering =>
    imports.running ? failure(request, importRunning()) : run();

  /** The route served past the scenario's faults for this operation (a delay, a network failure), if any match. */
  const guarded = (route: ApiRoute, call: ApiCall, account: Account, recipients?: readonly string[]): Answering => {
    const faulted = fault(route.operation, call.environment, account, recipients);
    return faulted === undefined
      ? serve(route, call)
      : faulted.then(
          (network) =>
            resumed(call.request, () =>
              network === undefined ? serve(route, call) : networkAnswer(network, () => serve(route, call)),
            ),
          (error: unknown) => failure(call.request, error),
        );
  };

  function answer(request: ApiRequest, environment: Environment, apiKey: string | undefined): Answering {
    try {
      // The one check a request makes for imports: one that arrives while an import puts its state in place is refused.
      if (imports.running) throw importRunning();
      checkDeclaredLength(request.header('content-length'), options.maxBodySize);
      if (options.requireHttps) requireHttps(request);
      // A HEAD is served by the GET route, as hono does.
      const matched = match(
        request.method === 'HEAD' ? 'GET' : request.method,
        request.path.slice(apiPrefixes[environment].length),
      );
      if (matched === undefined) throw routeNotFound(request.method, request.path);
      const { route } = matched;
      if (!('method' in route)) throw notAllowed(request.method, route.allow);
      const account = authenticate(store, apiKey);
      // A fault matching by recipient needs the send's numbers: the body is read first, once, for both.
      const readsRecipients = recipientOperations.has(route.operation) && faults.faultsReadRecipients(account);
      const served = readsRecipients ? withBodyReadOnce(request) : request;
      const call = new ApiCall(served, environment, matched.id ?? '', store, apiKey, settings);
      const forced = options.outcomeHeader ? request.header(networkHeaderName) : undefined;
      if (forced !== undefined) {
        // The one-off header wins over the scenario's faults, which then neither act nor count this request.
        const network = parseNetworkHeader(forced);
        announceFault(
          core.events,
          { at: account.clock.now(), environment, account, operation: route.operation },
          { network },
        );
        return networkAnswer(network, () => serve(route, call));
      }
      if (!readsRecipients) return guarded(route, call, account);
      const bytes = served.body(options.maxBodySize);
      const judged = (read: Uint8Array): Answering =>
        guarded(route, call, account, recipientsOf(read, request.header('content-type')));
      return bytes instanceof Promise
        ? bytes.then(
            (read) => resumed(request, () => judged(read)),
            (error: unknown) => failure(request, error),
          )
        : judged(bytes);
    } catch (error) {
      return failure(request, error);
    }
  }

  const handle = (request: ApiRequest): Answering => {
    const environment = apiEnvironment(request.path) ?? defaultEnvironment;
    const apiKey = basicUsername(request.header('authorization'));
    if (!journal.enabled) return answer(request, environment, apiKey);
    const pending = new PendingRecord(journal, store, clock, {
      method: request.method,
      path: request.path,
      query: request.query,
      environment,
      account: apiKey ?? null,
    });
    const result = answer(request, environment, apiKey);
    return result instanceof Promise
      ? result.then((settled) => journaled(request, pending, settled))
      : journaled(request, pending, result);
  };
  return handle;
}

/** The answer, once the request's journal record has been completed with it and with the body to keep. */
function journaled(request: ApiRequest, pending: PendingRecord, result: ApiAnswer): Answering {
  pending.answered(result.status, result.body, result.network?.kind);
  const body = journalKeepsBody(request.method) ? request.journalBody() : null;
  if (body instanceof Promise)
    return body.then((read) => {
      pending.keep(read);
      return result;
    });
  pending.keep(body);
  return result;
}

/** The request, its body read at most once however often it is asked for (a fault and then the route). */
function withBodyReadOnce(request: ApiRequest): ApiRequest {
  let bytes: Uint8Array | Promise<Uint8Array> | undefined;
  return Object.assign(Object.create(request) as ApiRequest, {
    body: (maxBytes: number) => (bytes ??= request.body(maxBytes)),
  });
}

/** The numbers a send or edit body names, for faults to match; a body the route will refuse names none. */
function recipientsOf(bytes: Uint8Array, contentType: string | undefined): string[] {
  let fields: RequestFields;
  try {
    fields = decodeBody(bytes, contentType);
  } catch {
    return [];
  }
  const { recipient } = fields;
  const list: unknown[] = Array.isArray(recipient) ? recipient : [recipient];
  return list.filter((number): number is string => typeof number === 'string');
}
