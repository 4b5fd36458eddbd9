/**
 * A login request from a chosen loopback address (127.0.0.x), so throttle tests can play several
 * clients: Linux routes the whole 127/8 to the loopback interface.
 */
import http from 'node:http';

export function loginFrom(
  baseUrl: string,
  localAddress: string,
  email: string,
  password: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/v1/auth/login`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
