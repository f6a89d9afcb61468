import type { WalletActionKind } from '../../db/schema';
import type { ActionFlow } from '../wallet-tx/actions';
import { issueFlow } from './issue';
import { registerFlow } from './profile';
import { confirmFlow, requestFlow } from './requests';
import { revokeFlow } from './revoke';

/** Every wallet-signed flow of institutions and holders, by kind (submit, start-up repair). */
export const INSTITUTION_FLOWS = {
  register_issuer: registerFlow,
  issue_certificate: issueFlow,
  confirm_certificate: confirmFlow,
  revoke_certificate: revokeFlow,
} satisfies Partial<Record<WalletActionKind, ActionFlow>>;

export const ALL_WALLET_FLOWS: Record<WalletActionKind, ActionFlow> = { ...INSTITUTION_FLOWS, request_confirmation: requestFlow };
