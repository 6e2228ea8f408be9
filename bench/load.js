// HTTP load through autocannon (programmatic): throughput and latency of one route.
import autocannon from 'autocannon';

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
  if (failed > 0)
    throw new Error(
      `bench: ${failed} of ${result.requests.total} requests to ${request.method} ${request.path} failed`,
    );
  return { rps: result.requests.total / seconds, p99: result.latency.p99, total: result.requests.total };
}
