/**
 * The container image of `npm run image` (issue 43, docs/container.md), run under podman from its archive with no
 * registry pull: it answers on a free host port, is healthy by its own health check, runs as a non-root user, takes
 * options from SMS_EMULATOR_* variables, keeps the Host check, and stops on SIGTERM. It runs when
 * SMS_EMULATOR_IMAGE_ARCHIVE names the archive (.ci/run's podman stage sets it after npm run image, with the podman
 * configuration a container without systemd needs), and is skipped, saying why, otherwise or where podman is missing.
 */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { containerPort, imageArchiveName, imageOutDir, imageTag, imageUser } from '../../scripts/image/imageConfig.js';

const root = join(import.meta.dirname, '../..');
const version: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const tag = imageTag(version);
const archive = process.env.SMS_EMULATOR_IMAGE_ARCHIVE;

function podman(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('podman', args, { encoding: 'utf8' });
  return {
    status: result.error === undefined ? result.status : null,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
  };
}

function whyNot(): string | undefined {
  if (podman('--version').status !== 0) return 'podman is not installed (.ci/run installs it for its podman stage)';
  if (archive === undefined)
    return `SMS_EMULATOR_IMAGE_ARCHIVE is not set; run npm run image, then set it to ${join(imageOutDir, imageArchiveName)}`;
  return undefined;
}
const skipped = whyNot();
const imageTest = skipped === undefined ? test : test.skip;

const started: string[] = [];
const built: string[] = [];
beforeAll(() => {
  if (skipped !== undefined) return;
  const loaded = podman('load', '--input', archive ?? '');
  expect(loaded.status, loaded.stderr).toBe(0);
}, 120_000);
afterAll(() => {
  if (started.length > 0) podman('rm', '--force', ...started);
  if (built.length > 0) podman('rmi', '--force', ...built);
});

/**
 * Starts the image detached on a free port of 127.0.0.1, never pulling; answers its name and the mapped origin. The
 * container is named before it is run, so afterAll removes one that failed to start too.
 */
function run(...options: string[]): { id: string; origin: string } {
  const id = `sms-emulator-image-test-${process.pid}-${started.length}`;
  started.push(id);
  const ran = podman(
    'run',
    '--detach',
    '--name',
    id,
    '--pull=never',
    '--publish',
    `127.0.0.1::${containerPort}`,
    ...options,
    tag,
  );
  expect(ran.status, ran.stderr).toBe(0);
  const port = podman('port', id, String(containerPort));
  expect(port.status, port.stderr).toBe(0);
  return { id, origin: `http://${port.stdout.trim().split('\n')[0]}` };
}

async function untilHealthy(origin: string): Promise<void> {
  for (;;) {
    const status = await fetch(`${origin}/_emulator/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await delay(20);
  }
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

imageTest(
  `the image answers the balance endpoint on a free host port, healthy, as a non-root user, and stops on SIGTERM${skipped === undefined ? '' : ` (skipped: ${skipped})`}`,
  async () => {
    const before = performance.now();
    const { id, origin } = run();
    await untilHealthy(origin);
    const readyMs = Math.round(performance.now() - before);

    const balance = await fetch(`${origin}/v1/messages/balance`, {
      headers: { authorization: basic('pk_test_sms_emulator') },
    });
    expect(balance.status).toBe(200);
    expect(await balance.json()).toMatchObject({ balance: 1000 });
    const healthcheck = podman('healthcheck', 'run', id);
    expect(healthcheck.status, healthcheck.stdout + healthcheck.stderr).toBe(0);
    const uid = podman('exec', id, '/usr/local/bin/node', '-p', 'process.getuid()');
    expect(uid.stdout.trim()).toBe(String(imageUser.uid));
    expect(podman('logs', id).stdout).toContain(`sms-emulator ${version} is ready`);

    const stopStarted = performance.now();
    const stopped = podman('stop', '--time', '10', id);
    const stopMs = Math.round(performance.now() - stopStarted);
    expect(stopped.status, stopped.stderr).toBe(0);
    // 0, not 137: the emulator ended on SIGTERM itself, before podman's grace period ran out into SIGKILL.
    expect(podman('inspect', id, '--format', '{{.State.ExitCode}}').stdout.trim()).toBe('0');
    expect(podman('logs', id).stdout).toContain('SIGTERM received, stopping.');
    process.stdout.write(
      `container image: ready (healthy on the mapped port) in ${readyMs} ms from podman run; stopped in ${stopMs} ms\n`,
    );
  },
  60_000,
);

imageTest(
  `the image takes options from SMS_EMULATOR_* variables and answers only its own host names${skipped === undefined ? '' : ` (skipped: ${skipped})`}`,
  async () => {
    const { origin } = run('--env', 'SMS_EMULATOR_BALANCE=42', '--env', 'SMS_EMULATOR_ALLOWED_HOSTS=sms-emulator');
    await untilHealthy(origin);
    const balanceAt = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        // fetch() sets Host from the URL; node:http lets the test send the Host a browser on another name would.
        import('node:http').then(({ get }) =>
          get(
            `${origin}/v1/messages/balance`,
            { headers: { host, authorization: basic('pk_test_sms_emulator') } },
            (response) => {
              let body = '';
              response.on('data', (chunk) => (body += chunk));
              response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
            },
          ).on('error', reject),
        );
      });
    expect(await balanceAt('sms-emulator')).toMatchObject({
      status: 200,
      body: expect.stringContaining('"balance":42'),
    });
    expect(await balanceAt('localhost:1234')).toMatchObject({ status: 200 });
    expect(await balanceAt('rebound.example')).toMatchObject({
      status: 403,
      body: expect.stringContaining('HOST_NOT_ALLOWED'),
    });
  },
  60_000,
);

/** The run settings of an image as podman reports them, without the builder's own label. */
function runSettings(image: string): Record<string, unknown> {
  const inspected = podman('image', 'inspect', image, '--format', '{{json .Config}}\t{{json .HealthCheck}}');
  expect(inspected.status, inspected.stderr).toBe(0);
  const [config, healthCheck] = inspected.stdout
    .trim()
    .split('\t')
    .map((part) => JSON.parse(part));
  const labels = Object.entries(config.Labels ?? {}).filter(([key]) => !key.startsWith('io.buildah.'));
  return { ...config, Labels: Object.fromEntries(labels), healthCheck };
}

imageTest(
  `the Dockerfile beside the archive builds FROM scratch, pulling nothing, an image with the same run settings${skipped === undefined ? '' : ` (skipped: ${skipped})`}`,
  () => {
    const rebuilt = `localhost/sms-emulator-dockerfile-test:${process.pid}`;
    built.push(rebuilt);
    // The docker format keeps HEALTHCHECK, which the OCI image format has no field for.
    const build = podman(
      'build',
      '--pull=never',
      '--format',
      'docker',
      '--quiet',
      '--tag',
      rebuilt,
      dirname(archive ?? ''),
    );
    expect(build.status, build.stderr).toBe(0);
    expect(runSettings(rebuilt)).toEqual(runSettings(tag));
  },
  120_000,
);

imageTest(
  'with-podman.sh gives its command a Docker-compatible socket and fails the run when an image was pulled while it ran',
  () => {
    const script = join(root, 'scripts/image/with-podman.sh');
    // The image answers its name on the socket the wrapper opens, as a Testcontainers library would ask for it.
    const listed = spawnSync(
      'bash',
      [script, 'sh', '-c', 'curl -sf --unix-socket "${DOCKER_HOST#unix://}" http://podman/v1.41/images/json'],
      { encoding: 'utf8' },
    );
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(tag);
    expect(listed.stdout).toContain('0 image pulls');
    // A pull from an archive is a pull all the same (no registry is needed to make one here).
    const saved = join(dirname(archive ?? ''), `pull-probe-${process.pid}.tar`);
    expect(podman('save', '--quiet', '--output', saved, tag).status).toBe(0);
    const pulled = spawnSync('bash', [script, 'podman', 'pull', '--quiet', `docker-archive:${saved}`], {
      encoding: 'utf8',
    });
    spawnSync('rm', ['-f', saved]);
    expect(pulled.status).toBe(1);
    expect(pulled.stderr).toContain('an image was pulled');
  },
  120_000,
);
