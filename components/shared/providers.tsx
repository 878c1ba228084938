"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { ApiRequestError, sessionLost } from "./api";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { MoveDialogProvider } from "./MoveDialog";

/** A notice's one action (Undo), offered while the notice shows; `z` presses the latest (KeyboardHelp.tsx). */
export interface NoticeAction {
  label: string;
  run: () => void;
}

export interface Notice {
  id: number;
  text: string;
  action?: NoticeAction;
}

/** How long a notice shows, and its action. */
export interface NoticeOptions {
  action?: NoticeAction;
  ms?: number;
}

interface NoticeContext {
  notices: Notice[];
  notify: (text: string, options?: NoticeOptions) => void;
  dismiss: (id: number) => void;
}

const Notices = createContext<NoticeContext | null>(null);
const NOTICE_MS = 20_000;

/** Messages the dispatcher must see (a refused status change), shown until dismissed or stale. */
export function useNotify(): (text: string, options?: NoticeOptions) => void {
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
    (text: string, options: NoticeOptions = {}) => {
      const id = Date.now() + Math.random();
      setNotices((list) => [...list.slice(-4), { id, text, action: options.action }]);
      setTimeout(() => dismiss(id), options.ms ?? NOTICE_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ notices, notify, dismiss }), [notices, notify, dismiss]);
  return (
    <QueryClientProvider client={client}>
      <Notices.Provider value={value}>
        <MoveDialogProvider>{children}</MoveDialogProvider>
      </Notices.Provider>
    </QueryClientProvider>
  );
}
