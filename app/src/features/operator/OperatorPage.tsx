// /operator: the operator console (notes/institutions-design.md), for wallets listed in
// ATTESTA_OPERATOR_WALLETS only (the server refuses anyone else: FORBIDDEN). Institutions by status with
// their domain proof, approve / suspend (set_issuer_status, signed by the server's operator key), revoke
// any certificate for fraud (note required), and the append-only audit log, newest first, paged.
// The cards live in components/; this page composes them.
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../certificates/components/PageHeader';
import { AuditCard } from './components/AuditCard';
import { FraudRevokeCard } from './components/FraudRevokeCard';
import { IssuersCard } from './components/IssuersCard';

export default function OperatorPage() {
  const { roles } = useAuth();
  if (!roles.operator) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">Operators only</h1>
        <p className="mt-2 text-muted-foreground">This wallet is not an operator of this installation.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl min-w-0 space-y-6 [overflow-wrap:anywhere]">
      <PageHeader title="Operator console" description="Approve institutions, revoke fraud and read the audit log." />
      <IssuersCard />
      <div className="max-w-2xl">
        <FraudRevokeCard />
      </div>
      <AuditCard />
    </div>
  );
}
