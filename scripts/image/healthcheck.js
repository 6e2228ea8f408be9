// The container image's health check (copied into the image by rootfs.js; the image has no curl): healthy when the
// emulator's ready file exists and its /_emulator/health answers 200. The origin comes from the ready file the emulator
// writes once it listens, so a port or TLS set through SMS_EMULATOR_* is followed without reading the options twice.
// A self-signed certificate is accepted: this asks the emulator in the same container, over loopback.
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

const readyFile = process.env.SMS_EMULATOR_READY_FILE;
let origin;
try {
  origin = JSON.parse(readFileSync(readyFile, 'utf8')).origin;
} catch (error) {
  console.error(`not ready: cannot read the ready file ${readyFile}: ${error.message}`);
  process.exit(1);
}
const url = new URL('/_emulator/health', origin);
const get = url.protocol === 'https:' ? httpsGet : httpGet;
const request = get(url, { rejectUnauthorized: false, timeout: 2000 }, (response) => {
  response.resume();
  console.log(`${url}: ${response.statusCode}`);
  process.exit(response.statusCode === 200 ? 0 : 1);
});
request.on('timeout', () => request.destroy(new Error('no answer within 2 s')));
request.on('error', (error) => {
  console.error(`${url}: ${error.message}`);
  process.exit(1);
});
