import bs58 from 'bs58';
import type { Config } from '../../config';
import { DEV_ACCOUNT_IDS, type DevAccount, type DevAccountId } from '../../../../shared/schemas/dev-accounts';
import { loadOrCreateDemoKeys, type DemoKeys } from './keys';

// The development wallet's named accounts (issue 14): on the embedded chain a newcomer running
// `npm start` can try the three roles. Their keys are this installation's random demo keys
// (demo-keys.json, mode 600): nobody can derive them, and http/dev-accounts.ts hands them only to a
// browser on this machine. "Holder" is the demo holder (cert-1..cert-3), "Institution" the approved demo
// institution (both with the demo data only), "Operator" a wallet treated as an operator here and only
// on the embedded chain (ATTESTA_OPERATOR_WALLETS still names the operators of any other chain).

export { DEV_ACCOUNT_IDS, type DevAccount, type DevAccountId };

export class DevAccounts {
  private readonly operatorAddress: string;
  constructor(
    private readonly keys: DemoKeys,
    private readonly withDemoData: boolean,
  ) {
    this.operatorAddress = keys.operator.publicKey.toBase58();
  }

  /**
   * The "Institution" account with the demo data: the seeded demo institution. Its domain is a reserved
   * example name nobody can prove, so on this local chain it may issue and confirm without the proof;
   * every verdict of its records says the domain is not proven.
   */
  isDemoInstitution(wallet: string): boolean {
    return this.withDemoData && wallet === this.keys.issuer.publicKey.toBase58();
  }

  /** The "Operator" account: an operator of this (embedded-chain) installation. */
  isOperator(wallet: string): boolean {
    return wallet === this.operatorAddress;
  }

  list(): DevAccount[] {
    const account = (id: DevAccountId, label: string, description: string, kp: DemoKeys[keyof DemoKeys]): DevAccount => ({
      id,
      label,
      description,
      address: kp.publicKey.toBase58(),
      secret_key: bs58.encode(kp.secretKey),
    });
    return [
      ...(this.withDemoData
        ? [
            account('holder', 'Holder', 'Alex Demo, who holds the demo certificates', this.keys.holder),
            account('institution', 'Institution', 'Attesta Demo University, an approved institution (demo data)', this.keys.issuer),
          ]
        : []),
      account('operator', 'Operator', 'The operator console of this local installation', this.keys.operator),
    ];
  }
}

/** The named accounts when this server offers them (the embedded chain, ATTESTA_DEV_ACCOUNTS on), else null. */
export function loadDevAccounts(config: Pick<Config, 'devAccounts' | 'demoData' | 'dataDir'>): DevAccounts | null {
  if (!config.devAccounts) return null;
  return new DevAccounts(loadOrCreateDemoKeys(config.dataDir), config.demoData);
}
