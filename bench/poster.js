// Baseline for webhooks/s: posts `count` webhook-sized JSON bodies over a keep-alive node:http agent, 50 at a time.
import { Agent, request } from 'node:http';

const [url, count] = [process.argv[2], Number(process.argv[3])];
const agent = new Agent({ keepAlive: true, maxSockets: 50 });
const body = JSON.stringify({
  id: '00000000-0000-4000-8000-000000000000',
  type: 'sms',
  recipient: ['27831234567'],
  message: 'Benchmark message',
  status: 'delivered',
});
const post = () =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(body);
  });
let sent = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: 50 }, async () => {
    while (sent < count) {
      sent += 1;
      await post();
    }
  }),
);
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, sent })}\n`);
agent.destroy();
