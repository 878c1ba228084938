"use client";

import { useCallback, useEffect, useRef } from "react";
import type { LiveIncident } from "./api";
import { humanize, isOpen } from "./call-status";
import { storedSetting } from "./stored-setting";

/** The mute switch, remembered by this browser ("1": muted). */
const mute = storedSetting("mayday.alerts.muted", ["0", "1"], "0");

let audio: AudioContext | undefined;

/** A short two-note tone made by Web Audio: nothing to download, nothing external. */
function playTone(): void {
  if (typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  void audio.resume().catch(() => undefined);
  for (const [index, frequency] of [880, 1320].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.value = 0.2;
    oscillator.connect(gain).connect(audio.destination);
    const at = audio.currentTime + index * 0.18;
    oscillator.start(at);
    oscillator.stop(at + 0.15);
  }
}

function notify(incident: LiveIncident, exercise: boolean): void {
  if (!document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const what = incident.call_count === 1 ? "a new critical incident" : `a new caller (${incident.call_count} in all)`;
  new Notification(`${exercise ? "Exercise: " : ""}${humanize(incident.emergency_type)}, ${what}`, {
    body: `${incident.location}\n${incident.latest_call.summary}`,
    tag: incident.id,
  });
}

export interface Alerts {
  muted: boolean;
  toggleMute: () => void;
  /** Whether a new call of this incident alerts: its queue entry flashes while the call is new. */
  alerts: (incident: LiveIncident) => boolean;
}

/**
 * Alerts for what a dispatcher must not miss (docs/dashboard.md, "Alerts"): an open critical
 * incident whose latest call arrived while the page was open (a new critical incident, or a new
 * caller about one) sounds a tone unless muted, flashes its queue entry and, while the tab is in
 * the background and the person allowed it, shows a browser notification. An exercise's incident
 * alerts only while its exercise runs or is paused (the banner is shown), and says so.
 */
export function useAlerts(incidents: readonly LiveIncident[], arrivals: ReadonlyMap<string, number>, exerciseShown: boolean): Alerts {
  const muted = mute.useValue() === "1";
  const alerted = useRef(new Set<string>());

  const toggleMute = useCallback(() => mute.set(mute.read() === "1" ? "0" : "1"), []);

  const alerts = useCallback(
    (incident: LiveIncident) =>
      incident.severity === "critical" && isOpen(incident.status) && (incident.latest_call.exercise_id === null || exerciseShown),
    [exerciseShown],
  );

  useEffect(() => {
    let tone = false;
    for (const incident of incidents) {
      const call = incident.latest_call;
      if (!arrivals.has(call.conversation_id) || alerted.current.has(call.conversation_id) || !alerts(incident)) continue;
      alerted.current.add(call.conversation_id);
      tone = true;
      notify(incident, call.exercise_id !== null);
    }
    if (tone && mute.read() !== "1") playTone();
  }, [incidents, arrivals, alerts]);

  return { muted, toggleMute, alerts };
}
