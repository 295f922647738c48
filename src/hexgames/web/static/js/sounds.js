// Move sounds and a low-time sound, as short WebAudio tones (no sound files). Off until
// the player turns them on (one switch, kept in the page's preferences).

import { prefs } from "./prefs.js";

let context = null;

/** Whether the sounds are on (off by default). */
export function soundsOn() {
  return prefs.get("sounds", false) === true;
}

/** Turn the sounds on or off (a click: the browser then lets the page make sounds). */
export function setSounds(on) {
  prefs.set("sounds", !!on);
  if (on) tone(660, 0.05, 0.05);
}

/** A tone of `frequency` Hz for `seconds`, at `volume` (0..1); nothing when the browser
 * has no WebAudio. */
function tone(frequency, seconds, volume = 0.15) {
  try {
    context = context || new AudioContext();
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + seconds);
    osc.connect(gain).connect(context.destination);
    osc.start();
    osc.stop(context.currentTime + seconds);
  } catch {
    // no WebAudio (or not allowed yet): silence
  }
}

/** The sound of a move: `mine` a little lower than the opponent's. */
export function moveSound(mine) {
  if (soundsOn()) tone(mine ? 440 : 550, 0.08);
}

/** The low-time warning: two short high tones. */
export function lowTimeSound() {
  if (!soundsOn()) return;
  tone(880, 0.1);
  setTimeout(() => tone(880, 0.1), 160);
}

/** The end of a game. */
export function endSound() {
  if (soundsOn()) tone(330, 0.3);
}
