/**
 * Entry point of the viewer page (index.html): reads the URL parameters (see `parseViewerParams`),
 * starts the {@link ViewerApp}, in development installs the test hooks (`window.sinew`, see `SinewTestHooks`)
 * and opens the `?model=` URL, or the built-in octopus. When the `?model=` file fails, the octopus opens instead and
 * the banner keeps the error.
 */
import './viewer.css';
import { createOctopusAsset } from '../procedural/octopus.ts';
import { ViewerApp } from './viewer-app.ts';
import { parseViewerParams } from './viewer-params.ts';

async function main(): Promise<void> {
  const { params, errors } = parseViewerParams(location.search);
  const root = document.getElementById('sinew-viewer') ?? document.body;
  const app = new ViewerApp(root, params);
  // Vite replaces import.meta.env.DEV with false in `vite build`, so the hooks and their read-back code are
  // not in the production app at all.
  if (import.meta.env.DEV) {
    const { installTestHooks } = await import('./test-hooks.ts');
    installTestHooks(app);
  }
  // Before any model is shown, so the first upload and draw use it.
  await app.view.setSkinningMethod({ skinning: params.skinning, weights: params.weights });
  const start = { clip: params.clip, time: params.time };

  let opened = false;
  let failure: string | null = null;
  if (params.model) {
    opened = await app.loadUrl(params.model, undefined, start, params.anim);
    if (!opened) failure = app.state().error;
  }
  if (!opened) {
    opened = await app.guardLoad(async () => app.showAsset(createOctopusAsset(), params.model ? {} : start), 'octopus');
  }
  const notes = [failure, ...errors].filter((m): m is string => !!m);
  if (notes.length > 0) app.showError(notes.join(' — '));
}

void main();
