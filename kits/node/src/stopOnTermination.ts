/** stopOnTermination: removes a container when the test runner is told to end (SIGTERM, SIGHUP), then lets the signal end it. */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The signals a CI runner or a closed terminal ends a test run with; Ctrl-C (SIGINT) already runs vitest's teardown. */
const endingSignals = ['SIGTERM', 'SIGHUP'] as const;

/** The script that removes a container by id, in a process of its own. */
const remover = fileURLToPath(new URL('./removeContainer.js', import.meta.url));

/**
 * Until the returned function is called, an ending signal has the container removed: with Testcontainers' reaper off
 * (as under podman) nothing else would, and it would run on, unseen. The removal runs in a detached process, since the
 * runner's own listeners may end this one at once; the signal then ends the process as it would have (exit status
 * 128 + its number), unless another listener of the process takes it.
 */
export function stopOnTermination(containerId: string): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    spawn(process.execPath, [remover, containerId], { detached: true, stdio: 'ignore', env: process.env }).unref();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const release = () => {
    for (const signal of endingSignals) process.off(signal, onSignal);
  };
  // First in line: a runner's own listener may exit the process before a later one runs.
  for (const signal of endingSignals) process.prependListener(signal, onSignal);
  return release;
}
