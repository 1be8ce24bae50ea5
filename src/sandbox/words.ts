// The sandbox's speech as words: the text spoken by SayBot's free voice (eSpeak NG, src/core/free-voice/), in a free
// voice of the request's language (else the preset voice's) and of the preset voice's gender, so that the demo's
// listener hears what was typed. Tests keep the tones, whose pitch and length they measure.
import { speakFree } from '../core/free-voice/free-voice-engine.ts';
import { freeVoiceFor } from '../core/free-voice/free-voices.ts';

/** eSpeak NG's WAV: a 44-byte header, then 16-bit mono samples. */
const WAV_HEADER_BYTES = 44;

/** The text as speech: the WAV eSpeak NG made, and its samples for another encoding (MP3). */
export async function spokenWords(speech: {
  text: string;
  voice?: string | undefined;
  language?: string | undefined;
}): Promise<{ wav: Buffer; samples: Int16Array; rate: number }> {
  const wav = await speakFree(speech.text, freeVoiceFor(speech.voice, speech.language));
  const rate = wav.readUInt32LE(24);
  const data = wav.subarray(WAV_HEADER_BYTES);
  const samples = new Int16Array(data.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
  return { wav, samples, rate };
}
