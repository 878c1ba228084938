import { getConfig } from "../config";
import { invalidParameter } from "../domain-error";
import { addressGuard, hostOf, RefusedAddressError } from "../net/address";

/**
 * A subscription's target must not reach the service's own network (lib/net/address.ts) unless
 * SUBSCRIPTION_ALLOW_PRIVATE_TARGETS allows it: checked at creation (every address the name
 * resolves to) and again at every delivery, which connects to the very address it checked.
 */
export const targetGuard = addressGuard(() => getConfig().SUBSCRIPTION_ALLOW_PRIVATE_TARGETS);

/** At creation and update: INVALID_PARAMETER for a target that resolves nowhere or somewhere private. */
export async function checkTarget(url: string): Promise<void> {
  const target = new URL(url);
  try {
    await targetGuard.check(target);
  } catch (error) {
    if (error instanceof RefusedAddressError) throw invalidParameter("Invalid url", `url: ${error.message}`);
    throw invalidParameter("Invalid url", `url: ${hostOf(target)} does not resolve`);
  }
}
