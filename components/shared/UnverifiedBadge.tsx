import type { CallRecord } from "@/lib/calls/schema";

/**
 * Marks a call that arrived by an unsigned webhook post (`verified: false`): anyone could have
 * sent it (docs/webhook.md, "Unsigned deliveries"). Text, not colour alone, and a title saying why.
 */
export function UnverifiedBadge({ call }: { call: Pick<CallRecord, "verified"> }) {
  if (call.verified !== false) return null;
  return (
    <span className="unverified-badge" data-testid="unverified-badge" title="Posted without a signature: anyone could have sent this call">
      Unverified
    </span>
  );
}
