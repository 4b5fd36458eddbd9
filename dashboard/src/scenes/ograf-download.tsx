/**
 * "Download as OGraf": a template or a saved native scene as an EBU OGraf graphic package (docs/ograf.md, "Export"),
 * fetched with the session (and its workspace) and saved by the browser as `<name>.zip`.
 */
import { useState } from 'preact/hooks';
import { ApiError, workspaceId } from '../api.js';

export function OgrafDownload({ path, fileName }: { path: string; fileName: string }) {
  const [note, setNote] = useState('');
  const download = async () => {
    setNote('Packing…');
    try {
      const zip = await fetchZip(path);
      const url = URL.createObjectURL(zip);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${fileName.replace(/[^\w.-]+/g, '-')}.zip`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNote('');
    } catch (err) {
      setNote(err instanceof ApiError ? err.message : 'The package could not be made.');
    }
  };
  return (
    <span class="ograf-download">
      <button type="button" onClick={() => void download()} title="An EBU OGraf graphic any OGraf renderer plays">
        Download as OGraf
      </button>
      {note && (
        <span class="hint small" role="status">
          {note}
        </span>
      )}
    </span>
  );
}

async function fetchZip(path: string): Promise<Blob> {
  const headers: Record<string, string> = { Accept: 'application/zip' };
  if (workspaceId.value) headers['X-Workspace'] = workspaceId.value;
  const res = await fetch(path, { headers, credentials: 'same-origin' });
  if (!res.ok) {
    const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
    throw new ApiError(res.status, problem.code ?? `http_${res.status}`, problem.detail ?? res.statusText);
  }
  return res.blob();
}
