// The public view's "Compare a File": the verifier drops the file they received; it is fingerprinted
// in the browser (never uploaded) and set beside the chain record's fingerprint. Loaded after the
// verdict (PublicViewPage), since many verifiers never use it.
import { useState } from 'react';
import { Loader2, Upload } from 'lucide-react';
import type { VerdictDto } from '../../../../shared/schemas/dto';
import { FileDropZone } from '../certificates/components/FileDropZone';
import { CompareResult, type Comparison } from '../verification/components/CompareResult';
import { sha256Hex } from '../verification/lib/hash';

/** `verdict`: the certificate's verdict, so a matching file of a certificate that is not valid is not said as a pass. */
export default function CompareFile({ expected, verdict }: { expected: string; verdict?: VerdictDto }) {
  const [hashing, setHashing] = useState(false);
  const [comparison, setComparison] = useState<Comparison | null>(null);

  async function compare(file: File) {
    setHashing(true);
    try {
      const actual = await sha256Hex(file);
      setComparison({ name: file.name, size: file.size, actual, expected });
    } finally {
      setHashing(false);
    }
  }

  return (
    <>
      <FileDropZone accept=".pdf,application/pdf,image/*" label="File to compare" onFile={(f) => void compare(f)} disabled={hashing}>
        {hashing ? <Loader2 className="mb-2 size-8 animate-spin text-muted-foreground" aria-hidden="true" /> : <Upload className="mb-2 size-8 text-muted-foreground" aria-hidden="true" />}
        <p className="font-medium">{hashing ? 'Computing fingerprint...' : 'Drop the file here, or click to choose it'}</p>
      </FileDropZone>
      {comparison && <CompareResult result={comparison} verdict={verdict} />}
    </>
  );
}
