"use client";

import { useState, type FormEvent } from "react";

/**
 * A form's submit: busy while the action runs (and after it succeeds, since success navigates
 * away), the failure's message otherwise. `messageFor` answers undefined for a failure it handled.
 */
export function useFormAction(action: (form: FormData) => Promise<void>, messageFor: (failure: unknown) => string | undefined) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await action(new FormData(event.currentTarget));
      return;
    } catch (failure) {
      setError(messageFor(failure));
    }
    setBusy(false);
  }

  return { error, busy, submit };
}
