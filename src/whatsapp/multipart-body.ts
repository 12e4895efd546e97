/** A file part of a multipart/form-data body. */
export interface MultipartFile {
  readonly field: string;
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly fileName: string;
}

/**
 * A multipart/form-data body, serialised by node's own FormData and Response
 * (so the boundary and escaping are the platform's): the bytes and the
 * `content-type` header that names the boundary.
 */
export async function multipartBody(
  fields: Readonly<Record<string, string>>,
  file: MultipartFile,
): Promise<{ readonly body: Uint8Array; readonly contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const bytes = new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  form.append(
    file.field,
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: file.mimeType }),
    file.fileName,
  );
  const response = new Response(form);
  const contentType = response.headers.get("content-type");
  if (contentType === null) throw new TypeError("FormData serialised without a content-type");
  return { body: new Uint8Array(await response.arrayBuffer()), contentType };
}
