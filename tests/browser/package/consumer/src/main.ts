// A consumer of the packed `sinew-gl` tarball, type-checked under create-vite's strict settings.
import 'sinew-gl/element';
import { computeSkinMatrices, parseGltf, type ModelAsset } from 'sinew-gl';

async function describeModel(url: string): Promise<string> {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const asset: ModelAsset = await parseGltf('CesiumMan.glb', bytes);
  const jointCount = asset.skins[0]?.joints.length ?? 0;
  return `${asset.clips.length} clip(s), ${jointCount} joints, computeSkinMatrices: ${typeof computeSkinMatrices}`;
}

const viewer = document.createElement('sinew-viewer');
viewer.id = 'viewer';
viewer.setAttribute('src', '/CesiumMan.glb');
viewer.setAttribute('autoplay', '');
viewer.style.width = '320px';
viewer.style.height = '240px';
viewer.addEventListener('load', (event) => {
  // `detail` is typed on the element's own event map (model-viewer's `{ url }`).
  document.body.dataset.url = event.detail.url ?? '';
  document.body.dataset.clips = viewer.clips.join(',');
});
document.querySelector('#app')!.append(viewer);

const summary = document.createElement('p');
summary.id = 'summary';
document.body.append(summary);
summary.textContent = await describeModel('/CesiumMan.glb');
