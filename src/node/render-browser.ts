import { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from './find-chromium.ts';
import { importOptional } from './import-optional.ts';
import { messageOf } from '../errors/message-of.ts';

/** The part of playwright-core's Browser that `sinew render` uses. */
export interface RenderBrowser {
  newPage(options: object): Promise<RenderPage>;
  close(): Promise<void>;
}

/** The part of playwright-core's Page that `sinew render` uses (expressions as strings: no bundled functions). */
export interface RenderPage {
  goto(url: string): Promise<unknown>;
  waitForFunction(fn: string, arg: undefined, options: { timeout: number }): Promise<unknown>;
  evaluate<T>(fn: string): Promise<T>;
  exposeFunction(name: string, callback: (...args: any[]) => unknown): Promise<void>;
  locator(selector: string): { screenshot(options: { omitBackground: boolean; type: 'png' }): Promise<Uint8Array> };
  on(event: 'pageerror', listener: (error: Error) => void): void;
  close(): Promise<void>;
}

/** playwright-core, an optional peer dependency: imported only here, with a message saying what to add. */
async function importPlaywright(): Promise<{ chromium: { launch(options: object): Promise<RenderBrowser> } }> {
  const playwright = await importOptional<{ chromium: { launch(options: object): Promise<RenderBrowser> } }>(['playwright', 'core'].join('-'));
  if (!playwright) throw new Error('sinew render needs playwright-core and a Chromium: `npm install --save-dev playwright-core @sparticuz/chromium`');
  return playwright;
}

/**
 * Node only: starts the headless Chromium `findChromium` finds (with {@link CHROMIUM_ARGS}: SwiftShader's WebGL2
 * without a GPU) through playwright-core.
 * @throws Error when playwright-core or a Chromium is missing, or the browser does not start (its log's first line)
 */
export async function launchRenderBrowser(): Promise<RenderBrowser> {
  const { chromium } = await importPlaywright();
  const found = await findChromium();
  if (!found) throw new Error(NO_CHROMIUM_MESSAGE);
  try {
    return await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], headless: true });
  } catch (error) {
    // Playwright's launch error carries its whole browser log; its first line says what happened.
    const firstLine = messageOf(error).split('\n')[0];
    throw new Error(`could not start Chromium at ${found.executablePath} (${found.source}): ${firstLine}`, { cause: error });
  }
}
