/** The rule of what is this emulator itself, which no webhook is posted to: its ports under any loopback name or its own names, and publicUrl. */

import { expect, test } from 'vitest';
import { type OwnAddresses, isOwnAddress, isOwnUrl } from '../../src/domain/ownAddress.js';

const own: OwnAddresses = {
  ports: [2727],
  names: ['vm', 'fd00::5', 'sms-emulator'],
  origins: ['https://sms.example.test'],
};
const redeliver = '/_emulator/webhooks/0f0e/redeliver';

test('its own port under every loopback name, the any-address, the IPv4-mapped forms and a trailing dot is the emulator', () => {
  const hosts = [
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '127.1',
    '2130706433',
    '0x7f000001',
    'localhost',
    'LOCALHOST.',
    'hooks.localhost',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:127.9.9.9]',
    '0.0.0.0',
    '0',
    '[::]',
    '[::ffff:0.0.0.0]',
  ];
  for (const host of hosts) expect(isOwnUrl(`http://${host}:2727${redeliver}`, own), host).toBe(true);
});

test('its own names on its own port, and anything under publicUrl, are the emulator; a default port counts as given', () => {
  expect(isOwnUrl(`http://vm:2727${redeliver}`, own)).toBe(true);
  expect(isOwnUrl(`http://SMS-Emulator:2727/hooks`, own)).toBe(true);
  expect(isOwnUrl(`http://[fd00::5]:2727/hooks`, own)).toBe(true);
  expect(isOwnUrl(`https://sms.example.test${redeliver}`, own)).toBe(true);
  expect(isOwnUrl(`https://user:pw@sms.example.test:443/x`, own)).toBe(true);
  expect(isOwnUrl(`https://SMS.example.test.${redeliver}`, own)).toBe(true);
  expect(isOwnUrl(`https://u:p@sms.example.test.:443/x`, own)).toBe(true);
  expect(isOwnUrl(`http://sms.example.test.:8080/x`, { ...own, origins: ['http://sms.example.test.:8080'] })).toBe(
    true,
  );
  expect(isOwnUrl(`http://sms.example.test:8080/x`, { ...own, origins: ['http://sms.example.test.:8080'] })).toBe(true);
  const local = { ...own, origins: ['https://localhost:8443'] };
  for (const host of ['127.0.0.1', '[::1]', 'LOCALHOST.', '127.0.0.2', 'hooks.localhost'])
    expect(isOwnUrl(`https://${host}:8443${redeliver}`, local), host).toBe(true);
  expect(isOwnUrl(`https://127.0.0.1:8444${redeliver}`, local)).toBe(false);
  expect(isOwnUrl(`https://sms.example.test:8443${redeliver}`, local)).toBe(false);
  expect(isOwnUrl('http://localhost/hooks', { ...own, ports: [80] })).toBe(true);
  expect(isOwnUrl('https://localhost/hooks', { ...own, ports: [443] })).toBe(true);
});

test('another port, another host, another scheme of publicUrl or a bad URL is not the emulator', () => {
  for (const url of [
    `http://127.0.0.1:4000${redeliver}`,
    'http://localhost:27270/hooks',
    'http://[::1]:2728/hooks',
    'http://vm:4000/hooks',
    'http://hooks.example.test:2727/hooks',
    'http://10.0.0.7:2727/hooks',
    'http://sms.example.test/hooks',
    'https://sms.example.test:8443/hooks',
    'not a url',
  ])
    expect(isOwnUrl(url, own), url).toBe(false);
  expect(isOwnUrl(`http://127.0.0.1:2727${redeliver}`, { ports: [], names: [], origins: [] })).toBe(false);
});

test("a connection's peer is the emulator on its port when it is a loopback address, one of its names, or the connection's own local address", () => {
  expect(isOwnAddress('127.0.0.1', 2727, own)).toBe(true);
  expect(isOwnAddress('::ffff:127.0.0.1', 2727, own)).toBe(true);
  expect(isOwnAddress('::1', 2727, own)).toBe(true);
  expect(isOwnAddress('fd00::5', 2727, own)).toBe(true);
  expect(isOwnAddress('192.168.1.20', 2727, own, '192.168.1.20')).toBe(true);
  expect(isOwnAddress('192.168.1.20', 2727, own, '192.168.1.21')).toBe(false);
  expect(isOwnAddress('127.0.0.1', 4000, own, '127.0.0.1')).toBe(false);
});
