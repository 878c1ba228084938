"use client";

import { useCallback, useEffect, useMemo, useRef } from "react";
import type { AlertIncident, Alerts, IncidentKind } from "../shared/api";
import { humanize } from "../shared/call-status";
import { storedSetting } from "../shared/stored-setting";
import { useAlertList } from "../shared/use-calls";

/** The mute switch, remembered by this browser ("1": muted). */
const mute = storedSetting("mayday.alerts.muted", ["0", "1"], "0");

let audio: AudioContext | undefined;

/**
 * Each kind's tone (docs/dashboard.md, "Alerts"): a real incident's rises and is bright; a
 * training one's falls, an octave lower and quieter, so an ear tells them apart without looking.
 */
export const TONES = {
  real: { notes: [880, 1320], gain: 0.2 },
  training: { notes: [440, 330], gain: 0.1 },
} as const satisfies Record<IncidentKind, { notes: readonly number[]; gain: number }>;

/** A short two-note tone made by Web Audio: nothing to download, nothing external. */
function playTone(kind: IncidentKind, delaySeconds: number): void {
  if (typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  void audio.resume().catch(() => undefined);
  for (const [index, frequency] of TONES[kind].notes.entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.value = TONES[kind].gain;
    oscillator.connect(gain).connect(audio.destination);
    const at = audio.currentTime + delaySeconds + index * 0.18;
    oscillator.start(at);
    oscillator.stop(at + 0.15);
  }
}

function notify(incident: AlertIncident, reminder: boolean): void {
  if (!document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const what = reminder
    ? "still waiting for a dispatch"
    : incident.call_count === 1
      ? `a new ${incident.severity} incident`
      : `a new caller (${incident.call_count} in all)`;
  new Notification(`${incident.latest_call.exercise_id ? "Exercise: " : ""}${humanize(incident.emergency_type)}, ${what}`, {
    body: `${incident.location}\n${incident.latest_call.summary}`,
    tag: incident.id,
  });
}

export interface AlertState {
  muted: boolean;
  toggleMute: () => void;
  /** The server's alerts (new critical and high calls, reminders); undefined while they load. */
  list: Alerts | undefined;
  /** The exercise shown, whose incidents alert (acknowledging all training alerts names it too). */
  exercise: string | undefined;
  /** Whether the incident has a new critical or high call nobody has acknowledged: its queue entry flashes. */
  alerting: (incidentId: string) => boolean;
}

const key = (incident: AlertIncident) => `${incident.id}@${incident.alert_at}`;

/**
 * Alerts for what a dispatcher must not miss (docs/dashboard.md, "Alerts"), from the server's
 * alerts (GET /api/live/alerts), which read every open incident, not the rows on screen: an open
 * critical or high incident with a call nobody has acknowledged (a new such incident, or a new
 * caller about one) and an incident waiting undispatched past its severity's threshold. Each new one that
 * appears while the page is open sounds its kind's tone unless muted (a reminder is silent;
 * a training incident's tone is lower and quieter than a real one's) and, while the
 * tab is in the background and the person allowed it, shows a browser notification; the "New" strip lists them
 * until someone acknowledges. An exercise's incidents alert only while its exercise is shown.
 */
export function useAlerts(exercise: string | undefined): AlertState {
  const muted = mute.useValue() === "1";
  const answer = useAlertList(exercise);
  const heard = useRef<Set<string> | null>(null);
  const toggleMute = useCallback(() => mute.set(mute.read() === "1" ? "0" : "1"), []);
  const list = answer.data;

  useEffect(() => {
    if (!list) return;
    const entries = [...list.new.incidents.map((incident) => ({ incident, reminder: false })), ...list.reminders.incidents.map((incident) => ({ incident, reminder: true }))];
    // What was already alerting when the page opened is listed, not sounded.
    const first = heard.current === null;
    const known = (heard.current ??= new Set());
    const tones = new Set<IncidentKind>();
    for (const { incident, reminder } of entries) {
      if (known.has(key(incident))) continue;
      known.add(key(incident));
      if (first) continue;
      // A reminder shows and notifies; only a new critical or high call sounds, in its kind's tone.
      if (!reminder) tones.add(incident.training ? "training" : "real");
      notify(incident, reminder);
    }
    if (mute.read() === "1") return;
    // A real alert's tone first: it never waits behind a training one.
    const sounded = (["real", "training"] as const).filter((kind) => tones.has(kind));
    for (const [index, kind] of sounded.entries()) playTone(kind, index * 0.45);
  }, [list]);

  const newIds = useMemo(() => new Set(list?.new.incidents.map((incident) => incident.id)), [list]);
  const alerting = useCallback((incidentId: string) => newIds.has(incidentId), [newIds]);
  return { muted, toggleMute, list, exercise, alerting };
}
