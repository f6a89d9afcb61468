// Minting: the server builds the soulbound Token-2022 mint transaction (platform pays fees and rent,
// the fresh mint key has signed), the holder's wallet adds its signature, the server submits it and
// stores the permanent copy.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Transaction, VersionedTransaction } from '@solana/web3.js';
import { trpc, trpcClient } from '../../lib/trpc';

function fromBase64(b64: string) {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
function toBase64(bytes: Uint8Array) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Legacy or v0: the message's first byte has the high bit set for versioned transactions. */
export function decodeTransaction(b64: string): Transaction | VersionedTransaction {
  const bytes = fromBase64(b64);
  try {
    const v = VersionedTransaction.deserialize(bytes);
    if (v.version !== 'legacy') return v;
  } catch {
    // legacy
  }
  return Transaction.from(bytes);
}

export function encodeTransaction(tx: Transaction | VersionedTransaction) {
  return toBase64(
    tx instanceof VersionedTransaction ? tx.serialize() : tx.serialize({ requireAllSignatures: false, verifySignatures: false }),
  );
}

export function useMintCertificate(signTransaction: <T extends Transaction | VersionedTransaction>(tx: T) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const prepared = await trpcClient.mint.prepare.mutate({ id });
      const signed = await signTransaction(decodeTransaction(prepared.transaction));
      return trpcClient.mint.submit.mutate({ id, signedTransaction: encodeTransaction(signed) });
    },
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries(trpc.certificate.pathFilter()), queryClient.invalidateQueries(trpc.mint.pathFilter())]),
  });
}
