import { failed, type LiveControl, waiting } from "../control";

const TRANSFER_REFUSAL = "ElevenLabs transfers only through its enterprise monitor socket or the agent's own transfer tool";

/** ElevenLabs has no live control outside its enterprise monitor socket: an instruction waits for the agent's incident_status. */
export const elevenLabsControl: LiveControl = {
  instruct: () => Promise.resolve(waiting("ElevenLabs offers no live control outside its enterprise monitor socket: the agent gets it from incident_status")),
  transferRefusal: TRANSFER_REFUSAL,
  transfer: () => Promise.resolve(failed(TRANSFER_REFUSAL)),
};
