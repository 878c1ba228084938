"use client";

import { useState, useSyncExternalStore } from "react";
import type { AlertState } from "./use-alerts";

const never = () => () => {};
const permissionNow = (): NotificationPermission | "unsupported" => (typeof Notification === "undefined" ? "unsupported" : Notification.permission);

/** The header's alert switches: the tone on or off (remembered), and asking once for notifications. */
export function AlertControls({ alerts }: { alerts: AlertState }) {
  const initial = useSyncExternalStore(never, permissionNow, () => "unsupported" as const);
  const [asked, setAsked] = useState<NotificationPermission | null>(null);
  const permission = asked ?? initial;
  return (
    <span className="alert-controls">
      <button type="button" aria-pressed={!alerts.muted} onClick={alerts.toggleMute} title="A tone for a new critical or high incident or caller">
        {alerts.muted ? "Alert sound off" : "Alert sound on"}
      </button>
      {permission === "default" && (
        <button type="button" onClick={() => void Notification.requestPermission().then(setAsked)}>
          Allow notifications
        </button>
      )}
    </span>
  );
}
