// The account pages (first-run setup, invitation, password reset): each posts its form to the API with the
// one-time token from the URL. The API is the same one scripts use; these pages only call it.
(function () {
  const page = document.body.dataset.page;
  const token = new URLSearchParams(location.search).get('token') || '';
  const message = document.getElementById('message');

  async function call(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) {
      const err = new Error((data && data.detail) || res.statusText);
      err.code = data && data.code;
      throw err;
    }
    return data;
  }

  function show(text, isError) {
    message.textContent = text;
    message.className = isError ? 'error' : '';
  }

  /** Every page ends signed in: the next step is the dashboard. */
  function offerDashboard() {
    const p = document.createElement('p');
    const a = document.createElement('a');
    a.href = '/';
    a.textContent = 'Open the dashboard';
    p.append(a);
    document.body.append(p);
  }

  function values(form) {
    return Object.fromEntries(new FormData(form));
  }

  function onSubmit(form, action) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await action(values(form));
      } catch (err) {
        show(String(err.message || err), true);
      }
    });
  }

  function joined(result, how) {
    for (const id of ['signed-in', 'signed-out']) document.getElementById(id).hidden = true;
    const names = (result.workspaces || []).map((w) => w.name).join(', ');
    show(`${how} You are signed in as ${result.user.email}; your workspaces: ${names}.`, false);
    offerDashboard();
  }

  function setupPage() {
    const form = document.getElementById('form');
    onSubmit(form, async (v) => {
      await call('POST', '/v1/auth/setup', { token, ...v });
      const key = await call('POST', '/v1/keys', { name: 'first key', permissions: ['*'] });
      form.remove();
      show('Owner account created. Your first API key is below: it is shown only now, so copy it.', false);
      const pre = document.createElement('pre');
      pre.textContent = 'export ONAIR_KEY=' + key.secret;
      message.after(pre);
      offerDashboard();
    });
  }

  async function invitePage() {
    const accept = (password) => call('POST', '/v1/auth/accept-invite', password ? { token, password } : { token });
    const me = await call('GET', '/v1/me').catch(() => null);
    if (me && me.user) {
      document.getElementById('me').textContent = me.user.email;
      document.getElementById('signed-in').hidden = false;
      document.getElementById('accept').addEventListener('click', () =>
        accept().then(
          (r) => joined(r, 'Invitation accepted.'),
          (err) => show(String(err.message || err), true),
        ),
      );
      return;
    }
    document.getElementById('signed-out').hidden = false;
    onSubmit(document.getElementById('create'), async (v) => {
      try {
        joined(await accept(v.password), 'Account created.');
      } catch (err) {
        if (err.code !== 'conflict') throw err;
        document.getElementById('create').reset();
        show('An account with this email exists already: sign in with it below to accept.', true);
      }
    });
    onSubmit(document.getElementById('signin'), async (v) => {
      await call('POST', '/v1/auth/login', { email: v.email, password: v.password });
      joined(await accept(), 'Invitation accepted.');
    });
  }

  function resetPage() {
    const form = document.getElementById('form');
    onSubmit(form, async (v) => {
      const result = await call('POST', '/v1/auth/reset-password', { token, password: v.password });
      form.remove();
      show(`Password set. You are signed in as ${result.user.email}.`, false);
      offerDashboard();
    });
  }

  if (!token) show('This page needs the link with its token, as it was given to you.', true);
  if (page === 'setup') setupPage();
  else if (page === 'invite') void invitePage();
  else if (page === 'reset') resetPage();
})();
