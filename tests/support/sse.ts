/** A server-sent event as the stream sends it. */
export interface ServerEvent {
  id?: string;
  event?: string;
  data?: string;
}

/**
 * Reads a text/event-stream body: events and comments, as they arrive. `next(test)` resolves with
 * the events received until one satisfies `test`, or rejects after `timeoutMs`.
 */
export function readEvents(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: ServerEvent[] = [];
  const comments: string[] = [];
  let buffer = "";
  let done = false;
  let wake: (() => void) | undefined;

  void (async () => {
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: ServerEvent = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            const match = /^(id|event|data): ?(.*)$/.exec(line);
            if (match) event[match[1] as keyof ServerEvent] = match[2];
          }
          if (event.id !== undefined || event.data !== undefined) events.push(event);
        }
        wake?.();
      }
    } catch {
      // Cancelled.
    } finally {
      done = true;
      wake?.();
    }
  })();

  return {
    events,
    comments,
    async until(test: () => boolean, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!test()) {
        if (done) throw new Error("stream ended");
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} events`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
