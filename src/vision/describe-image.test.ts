import { describe, expect, it } from "vitest";
import { describeImageWithoutVision } from "./describe-image.js";
import { imageDataUrl } from "./image-data-url.js";

describe("describeImageWithoutVision", () => {
  it("gives type, size and caption on one line, and tells the model it cannot see the image", () => {
    expect(
      describeImageWithoutVision({ mimeType: "image/jpeg", size: 48 * 1024, caption: 'I don pay\n"15k"' }),
    ).toBe(
      `[image: image/jpeg, 48 KB, caption "I don pay '15k'"; you cannot see images: if what it shows matters, ask the customer to type it]`,
    );
  });

  it("says when there is no caption", () => {
    expect(describeImageWithoutVision({ mimeType: "image/webp", size: 900 })).toBe(
      "[image: image/webp, 900 bytes, no caption; you cannot see images: if what it shows matters, ask the customer to type it]",
    );
  });
});

describe("imageDataUrl", () => {
  it("encodes the bytes under their (normalised) image type", () => {
    expect(imageDataUrl(Buffer.from("abc"), "Image/PNG")).toBe("data:image/png;base64,YWJj");
    expect(imageDataUrl(new Uint8Array([1, 2, 3]).subarray(1), "image/jpeg; charset=binary")).toBe(
      "data:image/jpeg;base64,AgM=",
    );
  });

  it("refuses a type that is not an image", () => {
    expect(() => imageDataUrl(Buffer.from("abc"), "application/pdf")).toThrow(TypeError);
    expect(() => imageDataUrl(Buffer.from("abc"), "")).toThrow(TypeError);
  });
});
