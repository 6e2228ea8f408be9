// Baseline: a bare node:http server that reads and parses the body, checks Basic auth and answers the emulator's JSON.
import { createServer } from 'node:http';
import { authorized, balanceJson, messageJson, unauthorizedJson } from './answers.js';

const json = { 'content-type': 'application/json' };
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (!authorized(request.headers.authorization)) return response.writeHead(401, json).end(unauthorizedJson);
    const origin = `http://${request.headers.host}`;
    if (request.method === 'GET' && request.url === '/v1/messages/balance')
      return response.writeHead(200, json).end(balanceJson(origin));
    if (request.method === 'POST' && request.url === '/v1/messages') {
      const fields = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      return response.writeHead(201, json).end(messageJson(origin, fields));
    }
    response.writeHead(404, json).end('{}');
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
