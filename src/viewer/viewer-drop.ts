/**
 * Drag-and-drop onto the whole viewer page: the body carries `sinew-dragging` while files are over it (nested
 * enter/leave counted), and a drop hands its files with the Shift and Alt keys to `onDrop` (the viewer: Alt /
 * Shift+Alt a prop, Shift clips for the shown model, else a model; viewer-app.ts `loadFiles`, viewer-props.ts).
 */
export function attachDrop(onDrop: (files: File[], shiftKey: boolean, altKey: boolean) => void): void {
  const body = document.body;
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    body.classList.add('sinew-dragging');
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) body.classList.remove('sinew-dragging');
  });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    body.classList.remove('sinew-dragging');
    const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
    if (files.length > 0) onDrop(files, e.shiftKey, e.altKey);
  });
}
