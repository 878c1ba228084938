/**
 * What a status move of an incident must say besides its status (lib/incidents/move-rule.ts): a
 * dispatch with no unit on the incident its reason, a close its disposition. Tests that move
 * incidents without units say it as a dispatcher would.
 */
export function withMoveDetails(status: string): Record<string, string> {
  if (status === "dispatched" || status === "enroute") return { status, dispatch_reason: "Units sent by radio" };
  if (status === "resolved" || status === "failed") return { status, disposition: "handled" };
  return { status };
}
