// Hashing for verifiers happens in the browser (WebCrypto), so the file never has to leave the device.
export async function sha256Hex(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const SHA256_RE = /^[0-9a-f]{64}$/;
