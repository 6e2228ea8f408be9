// The container image's settings in one place (issue 43): where things live in the root filesystem, the user, the
// environment, the port, the health check and the entry point. The docker-archive config (dockerArchive.js) and the
// Dockerfile (dockerfile.js) are both written from it, so the loaded image and a team's own build never differ.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The name, port and health path come from the kit contract (its `container` section, whose home is
// src/domain/kitSettings.ts), the file every Testcontainers module reads too; it is committed, so a fresh clone has it
// before anything is built.
const contract = JSON.parse(readFileSync(new URL('../../test-vectors/kit-contract.json', import.meta.url), 'utf8'));
const { container } = contract;

/** Where `npm run image` writes its outputs, relative to the checkout (ignored by git with the rest of kits/dist/). */
export const imageOutDir = 'kits/dist/image';
/** The docker-archive tar (`podman load -i`, `docker load -i`). */
export const imageArchiveName = 'sms-emulator-image.tar';
/** The root filesystem alone, which the Dockerfile ADDs onto `scratch`. */
export const rootfsArchiveName = 'sms-emulator-rootfs.tar.gz';

/** Paths inside the image. */
export const inImage = {
  node: '/usr/local/bin/node',
  emulator: '/opt/sms-emulator',
  healthcheck: '/opt/sms-emulator-healthcheck.js',
  readyFile: '/tmp/sms-emulator-ready.json',
};

/** The user the emulator runs as: not root, owning nothing in the image (it writes only to /tmp). */
export const imageUser = { name: 'emulator', uid: 10001, gid: 10001 };

export const containerPort = container.port;

/** The image's name as `podman load` tags it. */
export function imageTag(version) {
  return `${container.repository}:${version}`;
}

/**
 * The image's run settings (the OCI/Docker image config's `config` object). Every option is an `SMS_EMULATOR_*`
 * variable the emulator already reads; these set only what a container needs: listening on every interface of the
 * container's own network (the Host check then admits `localhost` and any IP address, which is what a port mapped from
 * the host sends; a compose service name is one the user adds with SMS_EMULATOR_ALLOWED_HOSTS), the fixed port, and the
 * ready file the health check reads its origin from.
 */
export function runConfig(version) {
  const nanoseconds = (seconds) => seconds * 1e9;
  return {
    User: `${imageUser.uid}:${imageUser.gid}`,
    Env: [
      'PATH=/usr/local/bin:/usr/bin:/bin',
      'HOME=/tmp',
      'SMS_EMULATOR_HOST=0.0.0.0',
      `SMS_EMULATOR_PORT=${containerPort}`,
      `SMS_EMULATOR_READY_FILE=${inImage.readyFile}`,
    ],
    Entrypoint: [inImage.node, join(inImage.emulator, 'bin/sms-emulator.js')],
    Cmd: [],
    WorkingDir: '/tmp',
    ExposedPorts: { [`${containerPort}/tcp`]: {} },
    StopSignal: 'SIGTERM',
    Healthcheck: {
      Test: ['CMD', inImage.node, inImage.healthcheck],
      Interval: nanoseconds(5),
      Timeout: nanoseconds(3),
      StartPeriod: nanoseconds(10),
      Retries: 3,
    },
    Labels: {
      'org.opencontainers.image.title': 'sms-emulator',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'MIT',
    },
  };
}
