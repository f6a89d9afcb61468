// Minting: the server builds the soulbound Token-2022 mint transaction (platform pays fees and rent,
// the fresh mint key has signed), the holder's wallet adds its signature, the server submits it and
// stores the permanent copy. The transaction travels as bytes (base64 on the wire): the wallet signs
// what the server prepared, so the page needs no @solana/web3.js to read or rebuild it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc, trpcClient } from '../../lib/trpc';

export function fromBase64(b64: string) {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
export function toBase64(bytes: Uint8Array) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function useMintCertificate(signTransaction: (transaction: Uint8Array) => Promise<Uint8Array>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const prepared = await trpcClient.mint.prepare.mutate({ id });
      const signed = await signTransaction(fromBase64(prepared.transaction));
      return trpcClient.mint.submit.mutate({ id, signedTransaction: toBase64(signed) });
    },
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries(trpc.certificate.pathFilter()), queryClient.invalidateQueries(trpc.mint.pathFilter())]),
  });
}
