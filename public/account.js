// First-run setup and invitation pages: post the form to the API with the one-time token from the URL.
(function () {
  const page = document.body.dataset.page;
  const token = new URLSearchParams(location.search).get('token') || '';
  const form = document.getElementById('form');
  const message = document.getElementById('message');

  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
    const data = res.status === 204 ? null : await res.json();
    if (!res.ok) throw new Error((data && data.detail) || res.statusText);
    return data;
  }

  function show(text, isError) {
    message.textContent = text;
    message.className = isError ? 'error' : '';
  }

  async function submit(event) {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form));
    try {
      if (page === 'setup') {
        await post('/v1/auth/setup', { token, ...values });
        const key = await post('/v1/keys', { name: 'first key', permissions: ['*'] });
        form.remove();
        show('Owner account created. Your first API key is below: it is shown only now, so copy it.', false);
        const pre = document.createElement('pre');
        pre.textContent = 'export ONAIR_KEY=' + key.secret;
        message.after(pre);
      } else {
        await post('/v1/auth/accept-invite', { token, password: values.password });
        form.remove();
        show('Password set. You are signed in.', false);
      }
    } catch (err) {
      show(String(err.message || err), true);
    }
  }

  if (!token) show('This page needs the link with its token, as printed by the server.', true);
  form.addEventListener('submit', submit);
})();
