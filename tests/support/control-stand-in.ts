import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** One request a stand-in platform received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** How the stand-in answers: a status, or never (the caller's timeout is what ends the request). */
export type StandInAnswer = { status: number } | "never";

export interface ControlStandIn {
  port: number;
  received: ReceivedRequest[];
  answer: StandInAnswer;
  close(): Promise<void>;
}

/** A self-signed certificate for `localhost`, 127.0.0.1 and ::1 (openssl), made for this test run: Vapi's control URLs are https. */
export function localCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "mayday-cert-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
      "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    return { key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A stand-in for a platform's live control (Vapi's control URL, Retell's update-live-call) on a
 * port of its own, over https when given a certificate (trusted by this process's default https
 * agent until it closes): it records every request it receives and answers as `answer` says.
 */
export async function startControlStandIn(tls?: { key: Buffer; cert: Buffer }): Promise<ControlStandIn> {
  const pending = new Set<ServerResponse>();
  const standIn: ControlStandIn = { port: 0, received: [], answer: { status: 200 }, close: async () => {} };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      standIn.received.push({ method: request.method ?? "", path: request.url ?? "", authorization: request.headers.authorization, body: text === "" ? null : JSON.parse(text) });
      if (standIn.answer === "never") {
        pending.add(response);
        return;
      }
      response.writeHead(standIn.answer.status, { "content-type": "application/json" }).end('{"success":true}');
    });
  };
  const server = tls ? https.createServer(tls, handle) : http.createServer(handle);
  if (tls) https.globalAgent.options.ca = tls.cert;
  // Every address (IPv4 and IPv6): `localhost` may resolve to either.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  standIn.port = (server.address() as AddressInfo).port;
  standIn.close = () =>
    new Promise((resolve) => {
      for (const response of pending) response.destroy();
      server.closeAllConnections();
      if (tls) delete https.globalAgent.options.ca;
      server.close(() => resolve());
    });
  return standIn;
}
