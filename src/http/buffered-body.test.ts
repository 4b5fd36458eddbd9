import { describe, expect, it } from 'vitest';
import { bufferedBody, keepResponseText, lightRequest, responseText } from './buffered-body.js';

describe('lightRequest', () => {
  const bytes = new TextEncoder().encode('{"scoreA":3}');
  const headers = new Headers({ 'content-type': 'application/json' });

  it('answers like a Request for url, method, headers and every body reader', async () => {
    const req = lightRequest('http://localhost/v1/x?y=1', 'PATCH', headers, bytes);
    expect(req).toBeInstanceOf(Request);
    expect([req.url, req.method, req.headers.get('content-type')]).toEqual([
      'http://localhost/v1/x?y=1',
      'PATCH',
      'application/json',
    ]);
    expect(bufferedBody(req)).toBe(bytes);
    expect(await req.text()).toBe('{"scoreA":3}');
    expect(await req.json()).toEqual({ scoreA: 3 });
    expect(new TextDecoder().decode(await req.arrayBuffer())).toBe('{"scoreA":3}');
    // Asking for the stream builds the real Request, with the same bytes.
    expect(await new Response(req.body).text()).toBe('{"scoreA":3}');
  });

  it('has an empty body when none was sent', async () => {
    const req = lightRequest('http://localhost/', 'GET', new Headers(), null);
    expect(bufferedBody(req)).toBeUndefined();
    expect(await req.text()).toBe('');
    expect(req.body).toBeNull();
  });
});

describe('responses keep their text', () => {
  it('keeps a string body for the transport and still reads as a normal Response', async () => {
    keepResponseText();
    const res = new Response('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } });
    expect(res).toBeInstanceOf(Response);
    expect(responseText(res)).toBe('{"ok":true}');
    expect(res.status).toBe(201);
    expect(await res.clone().json()).toEqual({ ok: true });
    expect(await new Response(res.body).text()).toBe('{"ok":true}');
    expect(await res.text()).toBe('{"ok":true}');
  });

  it('leaves non-string bodies alone', async () => {
    keepResponseText();
    const res = new Response(new Uint8Array([104, 105]));
    expect(responseText(res)).toBeUndefined();
    expect(await res.text()).toBe('hi');
  });
});
