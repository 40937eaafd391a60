/**
 * @module client/record/microphone
 * The microphone: the browser's permission prompt (getUserMedia, on the speaker's click or
 * key), the devices to choose from, and what to say when the browser refuses — each refusal
 * in a sentence that says what to do. The device chosen last is remembered per browser.
 */

/** Where the last chosen microphone is remembered (a device id; "" is the browser's default). */
const DEVICE_KEY = "deckhand:record:microphone";

/** A refusal the speaker can read: why nothing is recorded, and what to do. */
export class RecordRefusal extends Error {
  override name = "RecordRefusal";
}

export interface MicrophoneChoice {
  deviceId: string;
  label: string;
}

/** Whether this page may ask for a microphone at all (a secure context with mediaDevices). */
export function microphoneAvailable(): boolean {
  return typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia;
}

/** The microphones the browser lists; their names only once the speaker allowed one. */
export async function listMicrophones(): Promise<MicrophoneChoice[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices
      .filter((d) => d.kind === "audioinput" && d.deviceId && d.deviceId !== "default")
      .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Microphone ${i + 1}` }));
  } catch {
    return [];
  }
}

/** The sentence for a getUserMedia failure. Pure (the error's name decides). */
export function microphoneRefusal(error: unknown): string {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "NotAllowedError" || name === "SecurityError") return "The browser was not allowed to use the microphone. Allow it for this site (the icon in the address bar), or record without sound.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No microphone was found. Plug one in and choose it, or record without sound.";
  if (name === "NotReadableError" || name === "AbortError") return "The microphone could not be opened: another program may be using it. Close that program, or choose another microphone.";
  return "The microphone could not be opened. Choose another one, or record without sound.";
}

/** Ask for microphone `deviceId` ("" for the browser's default): the browser's prompt, if it asks. */
export async function openMicrophone(deviceId: string): Promise<MediaStream> {
  if (!microphoneAvailable()) throw new RecordRefusal("This page cannot use a microphone: browsers allow it only over https or on this computer (localhost). Record without sound, or open deckhand over https.");
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: deviceId ? { deviceId: { exact: deviceId } } : true, video: false });
  } catch (error) {
    throw new RecordRefusal(microphoneRefusal(error));
  }
}

export function rememberedMicrophone(): string {
  try {
    return localStorage.getItem(DEVICE_KEY) ?? "";
  } catch {
    return "";
  }
}

export function rememberMicrophone(deviceId: string): void {
  try {
    localStorage.setItem(DEVICE_KEY, deviceId);
  } catch {
    // Not remembered: the default is chosen next time.
  }
}
