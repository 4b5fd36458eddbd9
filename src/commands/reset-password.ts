/**
 * `onair reset-password <email>`: prints a one-time link (valid one hour) that sets a new password for the
 * account and ends all its sessions. For whoever runs the server: a forgotten owner password, or an
 * account to take back. Works beside the live server.
 */
import { issueResetToken } from '../auth/password-changes.js';
import { ConfigError, loadConfig } from '../config.js';
import { LiveAccountsError, openLiveAccounts } from '../store/sqlite/live-accounts.js';
import { CommandError, explained } from './command-error.js';

export async function runResetPassword(email: string): Promise<void> {
  const config = await explained([ConfigError], () => loadConfig());
  const live = await explained([LiveAccountsError], () => openLiveAccounts(config.dataDir));
  try {
    const token = await issueResetToken(live.accounts, email);
    if (!token) throw new CommandError(`there is no account with the email ${email}.`);
    const base = config.baseUrl ?? `http://localhost:${config.port}`;
    process.stdout.write(
      `Open this link within one hour to set a new password for ${email} (it works once; every session of ` +
        `the account ends):\n\n  ${base}/reset?token=${token}\n\n`,
    );
  } finally {
    live.close();
  }
}
