import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/access/next-path";
import { setupNeeded } from "@/lib/access/people";
import { ssoName } from "@/lib/access/sso";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await setupNeeded()) redirect("/setup");
  const { next, sso_error: ssoError } = await searchParams;
  const provider = ssoName();
  const nextPath = safeNextPath(next);
  return (
    <main className="auth-page">
      <h1>Mayday dispatch</h1>
      <p>Sign in with the account an administrator gave you.</p>
      {provider && ssoError && (
        <p role="alert" className="form-error">
          Sign-in with {provider} did not succeed. Only people an administrator has added to Mayday can sign in; ask one if
          you should be.
        </p>
      )}
      {provider && (
        <a className="button sso-button" href={`/api/session/sso?next=${encodeURIComponent(nextPath)}`}>
          Sign in with {provider}
        </a>
      )}
      <LoginForm next={nextPath} />
    </main>
  );
}
