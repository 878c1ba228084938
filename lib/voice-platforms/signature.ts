import { timingSafeEqual } from "node:crypto";
import { DomainError } from "../domain-error";

/** 401 INVALID_SIGNATURE: the request is not shown to come from the platform. */
export const invalidSignature = (message: string) => new DomainError("INVALID_SIGNATURE", message);

/** Whether `candidate` is the hex form of the HMAC-SHA256 `expected`, compared in constant time. */
export function matches(expected: Buffer, candidate: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(candidate)) return false;
  return timingSafeEqual(expected, Buffer.from(candidate, "hex"));
}

/** The signature of one delivery, fed the body as it streams in and checked at its end. */
export interface SignatureCheck {
  /**
   * Whether `verify()` proves the body is the platform's: false when nothing is checked (no
   * header, or no secret to check it with). Such a delivery may create a call, never change one.
   */
  verified: boolean;
  update(chunk: Uint8Array): void;
  /** Throws 401 INVALID_SIGNATURE unless the credential matches the bytes fed so far. */
  verify(): void;
}

/** A delivery nothing checks (no credential sent, or none configured to check it with). */
export const unchecked: SignatureCheck = { verified: false, update() {}, verify() {} };
