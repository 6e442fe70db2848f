import Cropper from 'cropperjs';
import { useEffect, useRef, useState } from 'preact/hooks';
import { upload } from '../api.js';
import { html } from '../ui.js';

const TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * Pick an image, re-frame it with Cropper.js (square), save. The crop box is sent in the image's
 * own pixels; the server re-checks the file, crops, resizes to 256×256 and answers the logo URL.
 */
export function LogoEditor({ appId, onSaved }: { appId: number; onSaved: (url: string) => void }) {
  const [file, setFile] = useState<File | undefined>(undefined);
  const [preview, setPreview] = useState('');
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [saved, setSaved] = useState('');
  const [ready, setReady] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  const cropper = useRef<Cropper | undefined>(undefined);

  useEffect(() => {
    if (!preview || !img.current) return;
    setReady(false);
    // checkOrientation off: the browser already shows the image upright, and the server turns it
    // upright the same way before cropping, so coordinates agree without re-reading the file.
    cropper.current = new Cropper(img.current, {
      aspectRatio: 1,
      viewMode: 1,
      autoCropArea: 0.9,
      checkOrientation: false,
      background: false,
      zoomable: false,
      ready: () => setReady(true),
    });
    return () => {
      cropper.current?.destroy();
      cropper.current = undefined;
      URL.revokeObjectURL(preview);
    };
  }, [preview]);

  const pick = (e: Event) => {
    const chosen = (e.currentTarget as HTMLInputElement).files?.[0];
    setError('');
    setSaved('');
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      setError('The image must be at most 5 MB.');
      return;
    }
    if (chosen.type && !TYPES.includes(chosen.type)) {
      setError('Choose a PNG, JPEG, WebP or GIF image.');
      return;
    }
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };

  const save = async () => {
    if (!file || !cropper.current) return;
    const d = cropper.current.getData(true);
    const { naturalWidth, naturalHeight } = cropper.current.getImageData();
    const x = Math.max(0, Math.min(d.x, naturalWidth - 1));
    const y = Math.max(0, Math.min(d.y, naturalHeight - 1));
    const crop = new URLSearchParams({
      x: String(x),
      y: String(y),
      width: String(Math.max(1, Math.min(d.width, naturalWidth - x))),
      height: String(Math.max(1, Math.min(d.height, naturalHeight - y))),
    });
    setError('');
    setProgress(0);
    try {
      const out = await upload<{ logoUrl: string }>(
        `/api/applications/${appId}/logo?${crop}`,
        file,
        setProgress,
      );
      setSaved(out.logoUrl);
      setFile(undefined);
      setPreview('');
      onSaved(out.logoUrl);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The upload failed.');
    } finally {
      setProgress(undefined);
    }
  };

  const busy = progress !== undefined;
  return html`<div class="logo-editor">
    <div class=${`field${error ? ' has-error' : ''}`}>
      <label for=${`logo-file-${appId}`}>Logo image</label>
      <input
        id=${`logo-file-${appId}`}
        type="file"
        accept=${TYPES.join(',')}
        onChange=${pick}
        disabled=${busy}
        aria-describedby=${`logo-hint-${appId}${error ? ` logo-error-${appId}` : ''}`}
      />
      <p class="hint" id=${`logo-hint-${appId}`}>PNG, JPEG, WebP or GIF, at most 5 MB. It is shown at 256×256.</p>
      ${error && html`<p class="field-error" id=${`logo-error-${appId}`}>${error}</p>`}
    </div>
    ${
      preview &&
      html`<div class="crop-area"><img ref=${img} src=${preview} alt="The image to crop" /></div>
        <p class="hint">Drag the frame to move it, drag its corners to resize it.</p>
        <button type="button" onClick=${save} disabled=${busy || !ready}>
          ${busy ? 'Saving logo…' : 'Save logo'}
        </button>`
    }
    ${
      busy &&
      html`<p class="progress" role="status">
        <label for=${`logo-progress-${appId}`}>Uploading</label>
        <progress id=${`logo-progress-${appId}`} max="100" value=${progress}>${progress}%</progress>
        <span>${progress}%</span>
      </p>`
    }
    ${saved && html`<p class="notice" role="status">Logo saved.</p>`}
  </div>`;
}
