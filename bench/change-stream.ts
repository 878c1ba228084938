import { benchAuth } from "./production-server";

/**
 * A dashboard's change stream on `base` (the bench's administrator key): each event's data goes to
 * `onEvent` with the time its chunk arrived. `connected` settles once the server has answered.
 */
export function openChangeStream(base: string, onEvent: (data: string, at: number) => void, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const connected = (async () => {
    const response = await fetch(`${base}/api/calls/stream`, { signal: controller.signal, headers: { ...headers, ...benchAuth } });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const at = Date.now();
          buffer += decoder.decode(value, { stream: true });
          const events = buffer.split("\n\n");
          buffer = events.pop() ?? "";
          for (const event of events) {
            const data = event.split("\n").find((line) => line.startsWith("data: "));
            if (data) onEvent(data.slice(6), at);
          }
        }
      } catch {
        // aborted
      }
    })();
  })();
  return { connected, close: () => controller.abort() };
}

/** When each awaited key first arrived: `when` answers at once for a key already seen, else on arrival, or null after `giveUpMs`. */
export function arrivals(giveUpMs: number) {
  const seen = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  return {
    mark(key: string, at: number) {
      if (seen.has(key)) return;
      seen.set(key, at);
      waiting.get(key)?.(at);
    },
    when: (key: string) =>
      new Promise<number | null>((resolve) => {
        if (seen.has(key)) return resolve(seen.get(key)!);
        waiting.set(key, resolve);
        setTimeout(() => resolve(null), giveUpMs);
      }),
  };
}
