import { useState } from 'preact/hooks';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { login } from '../session.js';

/** Sign in. The first owner is created from the setup link the server printed at its first start. */
export function LoginPage() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    const form = formValues(event);
    setBusy(true);
    try {
      await login(form.email ?? '', form.password ?? '');
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login" id="main">
      <h1>onair</h1>
      <form onSubmit={(e) => void submit(e)} aria-labelledby="login-title">
        <h2 id="login-title">Sign in</h2>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <Problem error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="hint">
        First start? Open the setup link the server printed in its terminal to create the owner account. Lost your
        password? Ask the owner to run <code>npm run reset-password -- you@example.com</code>.
      </p>
      <p class="hint">
        <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
