"use client";

import { useState, type FormEvent } from "react";

export function LoginForm({ next }: { next: string }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const apiKey = String(new FormData(event.currentTarget).get("api_key") ?? "");
    try {
      const response = await fetch("/api/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: apiKey }),
      });
      if (response.ok) {
        window.location.assign(next);
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      setError(response.status === 401 ? "That key is not valid." : (body.message ?? `Sign-in failed (${response.status}).`));
    } catch {
      setError("The service cannot be reached.");
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit}>
      <label htmlFor="api_key">API key</label>
      <input id="api_key" name="api_key" type="password" autoComplete="current-password" required autoFocus style={{ display: "block", width: "100%", margin: "0.5rem 0 1rem" }} />
      <button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {error && (
        <p role="alert" style={{ color: "crimson" }}>
          {error}
        </p>
      )}
    </form>
  );
}
