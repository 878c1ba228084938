import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, test, vi } from "vitest";
import { rereadQueries } from "@/components/shared/reread";

/** A view whose reads the test answers one by one, each with what the server held when it was asked. */
function heldView(client: QueryClient, key: string[]) {
  const server = { value: "before" };
  const pending: Array<() => void> = [];
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: () => {
      const seen = server.value;
      return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
    },
    retry: false,
  });
  const stop = observer.subscribe(() => undefined);
  return { server, pending, stop };
}

describe("rereadQueries", () => {
  const client = new QueryClient();
  afterEach(() => client.clear());

  test("a change made while a view's first read is in flight is shown, not hidden behind that earlier read", async () => {
    const view = heldView(client, ["gis-layers"]);
    await vi.waitFor(() => expect(view.pending).toHaveLength(1));
    view.server.value = "after";
    const reread = rereadQueries(client, { queryKey: ["gis-layers"] });
    await vi.waitFor(() => expect(view.pending).toHaveLength(2));
    view.pending[0]();
    view.pending[1]();
    await reread;
    expect(client.getQueryData(["gis-layers"])).toBe("after");
    view.stop();
  });

  test("a view already showing data is read again, and a view the filters leave out is not touched", async () => {
    const view = heldView(client, ["live", "queue"]);
    const board = heldView(client, ["live", "board"]);
    await vi.waitFor(() => expect(view.pending).toHaveLength(1));
    view.pending[0]();
    board.pending[0]();
    await vi.waitFor(() => expect(client.getQueryData(["live", "queue"])).toBe("before"));
    view.server.value = "after";
    const reread = rereadQueries(client, { queryKey: ["live"], predicate: (query) => query.queryKey[1] !== "board" });
    await vi.waitFor(() => expect(view.pending).toHaveLength(2));
    view.pending[1]();
    await reread;
    expect(client.getQueryData(["live", "queue"])).toBe("after");
    expect(board.pending).toHaveLength(1);
    view.stop();
    board.stop();
  });
});
