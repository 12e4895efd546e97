import type { InboundMessage, MediaReading } from "../whatsapp/index.js";

/**
 * The turn's messages with what their media said filled in: a voice note's
 * transcript becomes its text (the router and the agent read text), and the
 * reading rides along for the agent, the history and the message log.
 */
export function withReadings(
  messages: readonly InboundMessage[],
  readings: Readonly<Record<string, MediaReading>>,
): InboundMessage[] {
  return messages.map((message) => {
    const reading = readings[message.wamid];
    if (reading === undefined) return message;
    const text = reading.transcript?.text ?? message.text;
    return { ...message, reading, ...(text === undefined ? {} : { text }) };
  });
}

/**
 * The messages a responder should answer: all of them, unless every one is
 * media that could not be opened and carries no words, which the notice
 * answers on its own (a fallback reply on top would be a second, useless line).
 */
export function answerableAfterReading(messages: readonly InboundMessage[]): readonly InboundMessage[] {
  // Opened-but-not-understood media keep a description for the responder; unopened ones have none.
  const unreadable = (message: InboundMessage) =>
    message.reading?.failure !== undefined &&
    message.reading.description === undefined &&
    (message.text === undefined || message.text.trim() === "");
  return messages.every(unreadable) ? [] : messages;
}
