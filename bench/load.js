// HTTP load through autocannon (programmatic): throughput and latency of one route, or a fixed number of sends.
import autocannon from 'autocannon';
import { sendRequest } from './requests.js';

export const connections = 50;

/** Runs `request` against `origin` for `seconds`; every answer must be 2xx. */
export async function measure(origin, request, seconds) {
  const result = await autocannon({
    url: origin + request.path,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`bench: ${failed} of ${result.requests.total} requests to ${request.method} ${request.path} failed`);
  return { rps: result.requests.total / seconds, p99: result.latency.p99, total: result.requests.total };
}

/** Sends `count` distinct signed messages (see sendRequest) as fast as the server takes them. */
export async function sendMessages(origin, count) {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections,
    amount: count,
    requests: [{ setupRequest: (request) => ({ ...request, ...sendRequest(next++) }) }],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`bench: ${failed} of ${count} sends failed`);
  return result.requests.total;
}
