"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { ApiRequestError, sessionLost } from "./api";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

interface Notice {
  id: number;
  text: string;
}

interface NoticeContext {
  notices: Notice[];
  notify: (text: string) => void;
  dismiss: (id: number) => void;
}

const Notices = createContext<NoticeContext | null>(null);
const NOTICE_MS = 20_000;

/** Messages the dispatcher must see (a refused status change), shown until dismissed or stale. */
export function useNotify(): (text: string) => void {
  return useNoticeContext().notify;
}

export function useNoticeContext(): NoticeContext {
  const context = useContext(Notices);
  if (!context) throw new Error("useNoticeContext outside <Providers>");
  return context;
}

function isRefusal(error: Error): boolean {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
}

/** The sign-in page, which sends the person back to the dashboard. */
const LOGIN_PATH = "/login?next=/";

export function Providers({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [client] = useState(() => {
    // A session that ended (expired, the person removed) answers 401.
    const onError = (error: Error) => {
      if (sessionLost(error)) router.push(LOGIN_PATH);
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: {
        // One quick retry for a dropped connection; a refusal (4xx) is an answer, not a glitch.
        queries: { staleTime: 2_000, retry: (failures, error) => failures < 1 && !isRefusal(error), retryDelay: 1_000 },
      },
    });
  });
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((notice) => notice.id !== id)), []);
  const notify = useCallback(
    (text: string) => {
      const id = Date.now() + Math.random();
      setNotices((list) => [...list.slice(-4), { id, text }]);
      setTimeout(() => dismiss(id), NOTICE_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ notices, notify, dismiss }), [notices, notify, dismiss]);
  return (
    <QueryClientProvider client={client}>
      <Notices.Provider value={value}>{children}</Notices.Provider>
    </QueryClientProvider>
  );
}
