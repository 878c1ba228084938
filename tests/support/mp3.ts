/**
 * A valid MP3 of silence of about `bytes` bytes, made without an encoder: MPEG-1 Layer III frames
 * at 128 kbit/s, 44.1 kHz, mono, each 417 bytes, whose side information and main data are all
 * zero (every granule decodes to silence). Browsers play it; 20 MB is about 22 minutes.
 */
export function silentMp3(bytes: number): Buffer {
  const frameBytes = 417; // 144 * 128000 / 44100, no padding
  const frame = Buffer.alloc(frameBytes);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  const frames = Math.max(1, Math.floor(bytes / frameBytes));
  const audio = Buffer.alloc(frames * frameBytes);
  for (let index = 0; index < frames; index++) frame.copy(audio, index * frameBytes);
  return audio;
}
