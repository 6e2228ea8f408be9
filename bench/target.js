// A server to load: the emulator (built) or a bare Node server answering the same balance JSON.
import { createServer } from 'node:http';
import { createEmulator } from '../dist/index.js';

const kind = process.argv[2];
if (kind === 'bare') {
  const body = JSON.stringify({ balance: 1000, documentation_url: 'http://127.0.0.1/_emulator/docs/messages#get-balance' });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
} else {
  const emulator = createEmulator({ port: 0, balance: 1_000_000_000, seed: 'bench', clock: 'manual' });
  const { port } = await emulator.listen();
  process.stdout.write(`${port}\n`);
}
process.on('SIGINT', () => process.exit(0));
