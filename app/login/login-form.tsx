"use client";

import { ApiRequestError, signIn } from "@/components/shared/api";
import { useFormAction } from "@/components/shared/use-form-action";

export function LoginForm({ next }: { next: string }) {
  const { error, busy, submit } = useFormAction(
    async (form) => {
      await signIn(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      window.location.assign(next);
    },
    (failure) => {
      if (!(failure instanceof ApiRequestError) || failure.status === 0) return "The service cannot be reached.";
      if (failure.status === 401) return "That email and password do not match an account.";
      return failure.message;
    },
  );

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
