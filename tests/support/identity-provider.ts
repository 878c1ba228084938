import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A local OpenID Connect provider standing in for a centre's Entra ID, Okta or Keycloak (the
 * `oidc-provider` package: discovery, keys, code flow with PKCE, signed ID tokens). Its sign-in
 * page is skipped: whoever `signInAs` names is signed in and consents at once, so a test walks the
 * redirects with fetch alone.
 */
export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The person the next sign-in at the provider is: by default the account `sub-<email>` whose
   * email the provider has verified; `subject` names another account, `emailVerified: false` one
   * whose email nobody checked (anyone may type any address into a directory's profile).
   */
  signInAs(person: IdentityProviderAccount): void;
  close(): Promise<void>;
}

export interface IdentityProviderAccount {
  email: string;
  name: string;
  subject?: string;
  emailVerified?: boolean;
}

export async function startIdentityProvider(redirectUri: string): Promise<IdentityProvider> {
  const people = new Map<string, IdentityProviderAccount>();
  let current: string | undefined;
  const clientId = "mayday-test";
  const clientSecret = "a client secret for the stand-in provider";
  // The issuer names the port, so the server listens first and the provider answers once made.
  const made: { provider?: Provider } = {};
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const idp = made.provider;
    if (!idp) return void response.writeHead(503).end();
    if (request.url?.startsWith("/interaction/")) return void finishInteraction(idp, request, response);
    idp.callback()(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function finishInteraction(idp: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const details = await idp.interactionDetails(request, response);
      const accountId = current;
      if (!accountId) throw new Error("signInAs() first");
      if (details.prompt.name === "login") {
        await idp.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new idp.Grant({ accountId, clientId });
      grant.addOIDCScope("openid email profile");
      await idp.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  }

  made.provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ["code"], grant_types: ["authorization_code"] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["stand-in cookie key"] },
    findAccount: (_context, sub) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: () => ({ sub, email: person.email, email_verified: person.emailVerified ?? true, name: person.name }) };
    },
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(person) {
      current = person.subject ?? `sub-${person.email}`;
      people.set(current, person);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
