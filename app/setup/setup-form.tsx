"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiRequestError, createFirstAdministrator, signIn } from "@/components/api";

export function SetupForm({ minPasswordLength }: { minPasswordLength: number }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const form = new FormData(event.currentTarget);
    const person = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    try {
      await createFirstAdministrator(person);
      await signIn(person.email, person.password);
      router.replace("/admin");
      return;
    } catch (failure) {
      if (failure instanceof ApiRequestError && failure.code === "CONFLICT") {
        router.replace("/login");
        return;
      }
      setError(failure instanceof ApiRequestError && failure.status !== 0 ? failure.message : "The service cannot be reached.");
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="auth-form" aria-label="Create the first administrator">
      <label htmlFor="name">Your name</label>
      <input id="name" name="name" required autoFocus maxLength={120} autoComplete="name" />
      <label htmlFor="email">Email</label>
      <input id="email" name="email" type="email" required autoComplete="username" />
      <label htmlFor="password">Password ({minPasswordLength} characters or more)</label>
      <input id="password" name="password" type="password" required minLength={minPasswordLength} autoComplete="new-password" />
      <button type="submit" className="primary" disabled={busy}>{busy ? "Creating…" : "Create the first administrator"}</button>
      {error && <p role="alert" className="form-error">{error}</p>}
    </form>
  );
}
