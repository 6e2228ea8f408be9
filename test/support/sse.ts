/** Reads a Server-Sent Events response in tests: one parsed event at a time, in order. */

export interface SseEvent {
  event: string;
  data: any;
}

export interface SseReader {
  next(): Promise<SseEvent>;
  /** The first event whose data matches. */
  until(predicate: (data: any) => boolean): Promise<SseEvent>;
  /** True once the server has ended the stream. */
  done(): Promise<boolean>;
  cancel(): Promise<void>;
}

export function readEvents(response: Response): SseReader {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<SseEvent> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) continue;
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))
            ?.slice(name.length + 2) ?? '';
        return { event: field('event'), data: JSON.parse(field('data')) };
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error('the stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    next,
    async until(predicate) {
      for (;;) {
        const event = await next();
        if (predicate(event.data)) return event;
      }
    },
    async done() {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return true;
      }
    },
    cancel: () => reader.cancel(),
  };
}
