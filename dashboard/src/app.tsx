/**
 * The dashboard's frame: who is signed in, the workspace switcher, the navigation, and the view the URL
 * names. Every view talks to the server through the public /v1 API and the WebSocket only.
 */
import { LeaveDialog } from './components/leave-dialog.js';
import { LoginPage } from './pages/login.js';
import { ChannelsPage } from './pages/channels.js';
import { ChannelSettingsPage } from './pages/channel-settings.js';
import { AssetsPage } from './assets/assets-page.js';
import { AsRunPage } from './as-run/as-run-page.js';
import { LivePage } from './live/live-page.js';
import { SceneEditorPage } from './scenes/scene-editor-page.js';
import { ApiKeysPage } from './settings/api-keys.js';
import { WebhooksPage } from './settings/webhook-subscriptions.js';
import { MembersPage } from './settings/workspace-members.js';
import { ServerPage } from './settings/server-accounts.js';
import { href, route } from './router.js';
import { can, isOwner, isServerAdmin, logout, me, switchWorkspace, workspaces } from './session.js';

export function App() {
  const who = me.value;
  if (who === undefined) return <p class="loading">Loading…</p>;
  if (who === null) return <LoginPage />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href('channels')}>
          onair
        </a>
        <nav aria-label="Main">
          <a href={href('channels')} aria-current={section() === 'channels' ? 'page' : undefined}>
            Channels
          </a>
          <a href={href('assets')} aria-current={section() === 'assets' ? 'page' : undefined}>
            Assets
          </a>
          {can('keys:manage') && (
            <a href={href('settings', 'keys')} aria-current={section() === 'keys' ? 'page' : undefined}>
              API keys
            </a>
          )}
          {can('webhooks:manage') && (
            <a href={href('settings', 'webhooks')} aria-current={section() === 'webhooks' ? 'page' : undefined}>
              Webhooks
            </a>
          )}
          {isOwner.value && (
            <a href={href('settings', 'members')} aria-current={section() === 'members' ? 'page' : undefined}>
              Members
            </a>
          )}
          {isServerAdmin.value && (
            <a href={href('settings', 'server')} aria-current={section() === 'server' ? 'page' : undefined}>
              Server
            </a>
          )}
          {/* A tab of its own: an operator reading it mid-show keeps the live view. */}
          <a href="/docs" target="_blank" rel="noopener">
            API<span class="visually-hidden"> (opens in a new tab)</span>
          </a>
        </nav>
        <div class="who">
          <label>
            <span class="visually-hidden">Workspace</span>
            <select
              value={who.workspace.id}
              onChange={(e) =>
                void switchWorkspace(e.currentTarget.value).then(() => (location.hash = href('channels')))
              }
            >
              {workspaces.value.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <span class="role" title="Your role in this workspace">
            {who.user.email} · {who.role}
          </span>
          <button type="button" class="quiet" onClick={() => void logout()}>
            Log out
          </button>
        </div>
      </header>
      <View />
      <LeaveDialog />
    </>
  );
}

function section(): string {
  const [first, second] = route.value;
  if (first === 'assets') return 'assets';
  return first === 'settings' ? (second ?? '') : 'channels';
}

function View() {
  const [first, second, third, fourth] = route.value;
  if (first === 'channels' && second) {
    if (third === 'live' || third === undefined) return <LivePage channelId={second} />;
    if (third === 'settings') return <ChannelSettingsPage channelId={second} />;
    if (third === 'as-run') return <AsRunPage channelId={second} />;
    if (third === 'scenes') return <SceneEditorPage channelId={second} sceneId={fourth ?? null} />;
  }
  if (first === 'assets') return <AssetsPage />;
  if (first === 'settings' && second === 'keys') return <ApiKeysPage />;
  if (first === 'settings' && second === 'webhooks') return <WebhooksPage />;
  if (first === 'settings' && second === 'members') return <MembersPage />;
  if (first === 'settings' && second === 'server' && isServerAdmin.value) return <ServerPage />;
  return <ChannelsPage />;
}
