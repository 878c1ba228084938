"use client";

import { useState, type FormEvent } from "react";
import { ApiRequestError, signIn } from "@/components/api";

export function LoginForm({ next }: { next: string }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const form = new FormData(event.currentTarget);
    try {
      await signIn(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      window.location.assign(next);
      return;
    } catch (failure) {
      if (!(failure instanceof ApiRequestError) || failure.status === 0) setError("The service cannot be reached.");
      else if (failure.status === 401) setError("That email and password do not match an account.");
      else setError(failure.message);
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="auth-form">
      <label htmlFor="email">Email</label>
      <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      <label htmlFor="password">Password</label>
      <input id="password" name="password" type="password" autoComplete="current-password" required />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}
