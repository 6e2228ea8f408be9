/** An orphan's body: a notification's payload told of another message id, its links too. */

export function orphanPayload(payload: unknown, messageId: string, orphanId: string): unknown {
  const links = (payload as { _links?: unknown })._links;
  return {
    ...(payload as Record<string, unknown>),
    id: orphanId,
    ...(links === undefined
      ? {}
      : { _links: JSON.parse(JSON.stringify(links).replaceAll(messageId, orphanId)) as unknown }),
  };
}
