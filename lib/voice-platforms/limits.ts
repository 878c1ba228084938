/** Bodies over this are refused with 413 while they are still being read, but for recordings. */
export const WEBHOOK_MAX_BODY_BYTES = 5 * 1024 * 1024;
/** A post_call_audio event (the whole call as base64 MP3) may be this large. */
export const WEBHOOK_MAX_AUDIO_BODY_BYTES = 64 * 1024 * 1024;
