/** How the control API shows accounts. */

import type { AccountSettings, Account, WalletSettings } from '../state/store.js';
import { settingsOf } from './accounts.js';

export interface AccountView extends AccountSettings {
  live: WalletSettings & { messages: number };
  sandbox: WalletSettings & { messages: number };
}

export function accountView(account: Account): AccountView {
  const settings = settingsOf(account);
  const { live, sandbox } = account.environments;
  return {
    ...settings,
    live: { ...settings.live, messages: live.messages.length },
    sandbox: { ...settings.sandbox, messages: sandbox.messages.length },
  };
}

// src/engine/control.ts and src/control/ still import the message view from here; the control seam's move (issue 25) points them at domain/messageView.ts.
