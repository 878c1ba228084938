/** A server-sent event as the stream sends it. */
export interface ServerEvent {
  id?: string;
  event?: string;
  data?: string;
}

/**
 * Reads a text/event-stream body: events and comments, as they arrive. `until(test)` resolves once
 * `test` holds, or rejects after `timeoutMs`; `ended` resolves when the server ends the stream.
 */
export function readEvents(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: ServerEvent[] = [];
  const comments: string[] = [];
  let buffer = "";
  let done = false;
  let wake: (() => void) | undefined;

  const reading = (async () => {
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
    /** Resolves when the body ends, or rejects after `timeoutMs`. */
    ended(timeoutMs = 15_000): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the stream did not end within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([reading, timeout]).finally(() => clearTimeout(timer));
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
