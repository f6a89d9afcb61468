import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { publicChainInfo } from '../src/http/health';

// /healthz tells the app which chain it is on before anyone signs in; it must never hand the browser an
// RPC URL that could carry a provider's key.
describe('public chain info', () => {
  const info = (rpc?: string) => publicChainInfo(loadConfig(rpc ? { SOLANA_RPC_URL: rpc } : {}));

  it('the embedded chain offers the development wallet; its RPC is the server’s own /rpc', () => {
    expect(info()).toEqual({ chain: 'embedded', dev_wallet: true, rpc_url: null, demo_data: true });
  });

  it('a validator on this machine is local: development wallet, URL without credentials', () => {
    expect(info('http://127.0.0.1:8899')).toEqual({ chain: 'rpc', dev_wallet: true, rpc_url: 'http://127.0.0.1:8899/', demo_data: false });
    expect(info('http://user:secret@localhost:8899/rpc')).toEqual({ chain: 'rpc', dev_wallet: true, rpc_url: 'http://localhost:8899/rpc', demo_data: false });
  });

  it('a public cluster is named for explorer links; the development wallet is not offered', () => {
    expect(info('https://api.devnet.solana.com')).toEqual({ chain: 'rpc', dev_wallet: false, rpc_url: 'https://api.devnet.solana.com', demo_data: false });
  });

  it('says whether the demo certificates exist (embedded chain with ATTESTA_DEMO_DATA only)', () => {
    expect(publicChainInfo(loadConfig({ ATTESTA_DEMO_DATA: 'false' })).demo_data).toBe(false);
    expect(publicChainInfo(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899', ATTESTA_DEMO_DATA: 'true' })).demo_data).toBe(false);
  });

  it('a provider URL stays on the server (keys live in its path or query)', () => {
    expect(info('https://mainnet.example-rpc.com/?api-key=SECRET')).toEqual({ chain: 'rpc', dev_wallet: false, rpc_url: null, demo_data: false });
    expect(info('https://x.example.pro/SECRETTOKEN/')).toEqual({ chain: 'rpc', dev_wallet: false, rpc_url: null, demo_data: false });
  });
});
