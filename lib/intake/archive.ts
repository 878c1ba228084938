import { DomainError } from "../domain-error";
import { getObjectStore, type ObjectBody } from "../storage/get-object-store";

export const storageError = (cause: unknown) =>
  new DomainError("STORAGE_ERROR", "The payload could not be stored", { cause });

/**
 * The archive stage: a payload's bytes as received (or a recording's audio) kept in object
 * storage under its key before anything is recorded, so that nothing accepted is lost.
 */
export async function archive(key: string, body: ObjectBody, contentType = "application/json"): Promise<void> {
  try {
    await getObjectStore().put(key, body, contentType);
  } catch (error) {
    throw storageError(error);
  }
}
