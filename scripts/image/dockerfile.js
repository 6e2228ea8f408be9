// The Dockerfile for teams that build the image themselves: `FROM scratch`, the root filesystem `npm run image` wrote,
// and the same run settings as the loadable image (imageConfig.js's runConfig), instruction by instruction.
import { rootfsArchiveName, runConfig } from './imageConfig.js';

const seconds = (nanoseconds) => `${nanoseconds / 1e9}s`;

/** The Dockerfile's text for the image of `version`; it expects the rootfs archive beside it in the build context. */
export function dockerfileText(version) {
  const config = runConfig(version);
  const { Test, Interval, Timeout, StartPeriod, Retries } = config.Healthcheck;
  return [
    '# Written by npm run image (scripts/image/dockerfile.js): the sms-emulator image from its root filesystem alone.',
    `# Build it from this folder: docker build -t sms-emulator:${version} .`,
    'FROM scratch',
    `ADD ${rootfsArchiveName} /`,
    `USER ${config.User}`,
    ...config.Env.map((variable) => `ENV ${variable}`),
    `WORKDIR ${config.WorkingDir}`,
    ...Object.keys(config.ExposedPorts).map((port) => `EXPOSE ${port}`),
    `STOPSIGNAL ${config.StopSignal}`,
    `HEALTHCHECK --interval=${seconds(Interval)} --timeout=${seconds(Timeout)} --start-period=${seconds(StartPeriod)} --retries=${Retries} ${Test[0]} ${JSON.stringify(Test.slice(1))}`,
    ...Object.entries(config.Labels).map(([key, value]) => `LABEL ${key}=${JSON.stringify(value)}`),
    `ENTRYPOINT ${JSON.stringify(config.Entrypoint)}`,
    '',
  ].join('\n');
}
