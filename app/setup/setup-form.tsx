"use client";

import { useRouter } from "next/navigation";
import { ApiRequestError, createFirstAdministrator, signIn } from "@/components/shared/api";
import { useFormAction } from "@/components/shared/use-form-action";

export function SetupForm({ minPasswordLength }: { minPasswordLength: number }) {
  const router = useRouter();
  const field = (form: FormData, name: string) => String(form.get(name) ?? "");
  const { error, busy, submit } = useFormAction(
    async (form) => {
      const person = { name: field(form, "name"), email: field(form, "email"), password: field(form, "password") };
      await createFirstAdministrator(person);
      await signIn(person.email, person.password);
      router.replace("/admin");
    },
    (failure) => {
      if (failure instanceof ApiRequestError && failure.code === "CONFLICT") {
        router.replace("/login");
        return undefined;
      }
      return failure instanceof ApiRequestError && failure.status !== 0 ? failure.message : "The service cannot be reached.";
    },
  );

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
