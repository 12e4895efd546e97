import { describe, expect, it } from "vitest";
import { fileNameFor, languageCodeOf, wireLanguage } from "./transcription-wire.js";

describe("what a transcription sends", () => {
  it("names the upload so the provider picks the right decoder", () => {
    expect(fileNameFor({ mimeType: "audio/ogg; codecs=opus" })).toBe("audio.ogg");
    expect(fileNameFor({ mimeType: "audio/mpeg" })).toBe("audio.mp3");
    expect(fileNameFor({ mimeType: "audio/ogg", fileName: "note.OGG" })).toBe("note.OGG");
    expect(fileNameFor({ mimeType: "audio/ogg", fileName: "note.opus" })).toBe("note.ogg");
    expect(fileNameFor({ mimeType: "application/octet-stream", fileName: "" })).toBe("audio.ogg");
  });

  it("sends ISO-639-1 hints, Pidgin as en, and leaves out what providers would refuse", () => {
    expect(wireLanguage("en")).toBe("en");
    expect(wireLanguage("YO")).toBe("yo");
    expect(wireLanguage("en-NG")).toBe("en");
    expect(wireLanguage("pcm")).toBe("en");
    expect(wireLanguage("hau")).toBeUndefined();
    expect(wireLanguage(undefined)).toBeUndefined();
  });

  it("reads the language a provider reports as a code", () => {
    expect(languageCodeOf("english")).toBe("en");
    expect(languageCodeOf("Yoruba")).toBe("yo");
    expect(languageCodeOf("ha")).toBe("ha");
    expect(languageCodeOf("klingon")).toBeUndefined();
  });
});
