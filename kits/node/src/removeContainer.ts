/** removeContainer: a process of its own (`node removeContainer.js <id>`) that removes a container, stopping it first. */

import { getContainerRuntimeClient } from 'testcontainers';

// Started detached by stopOnTermination, so the removal outlives a test runner ended by a signal.
const [id] = process.argv.slice(2);
if (id !== undefined) {
  const client = await getContainerRuntimeClient();
  await client.container.getById(id).remove({ force: true, v: true });
}
