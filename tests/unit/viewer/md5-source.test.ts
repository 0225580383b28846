import { describe, expect, it } from 'vitest';
import { parseMd5Source } from '../../../src/viewer/md5-source.ts';
import { MissingFileError } from '../../../src/viewer/missing-file-error.ts';
import { md5AssetsAvailable, readMd5Text } from '../helpers/md5-assets.ts';

describe.skipIf(!md5AssetsAvailable)('parseMd5Source: companion files looked up by convention', () => {
  const main = () => ({ name: 'SimpleCube.md5mesh', bytes: new TextEncoder().encode(readMd5Text('SimpleCube.md5mesh')) });

  it('an absent <name>.md5anim gives the bind pose with a warning', async () => {
    const asset = await parseMd5Source(main(), async (uri) => {
      throw new MissingFileError(`${uri}: not found`);
    }, []);
    expect(asset.clips).toEqual([]);
    expect(asset.warnings).toContain('SimpleCube.md5mesh: no SimpleCube.md5anim next to it; showing the bind pose');
  });

  it('any other failure to fetch it (server error, network) is reported, not taken for "absent"', async () => {
    await expect(parseMd5Source(main(), async (uri) => {
      throw new Error(`${uri}: HTTP 500 Internal Server Error`);
    }, [])).rejects.toThrow('SimpleCube.md5anim: HTTP 500 Internal Server Error');
  });
});
