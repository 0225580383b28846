import type { Meta as Vrm0Meta } from '@pixiv/types-vrm-0.0';
import type { Meta as Vrm1Meta } from '@pixiv/types-vrmc-vrm-1.0';
import type { AvatarMeta } from '../../asset/avatar-asset.ts';
import { quoteValue } from '../load-error.ts';
import { isIndex, isJsonObject, type VrmReading } from './vrm-reading.ts';

/** VRM 1.0's defaults for every optional meta field (VRMC_vrm-1.0 `meta.md`, and schema `VRMC_vrm.meta.schema.json`). */
const DEFAULT_META: AvatarMeta = {
  name: '', version: '', authors: [], copyrightInformation: '', contactInformation: '', references: [],
  thirdPartyLicenses: '', thumbnailImage: -1, licenseUrl: '', avatarPermission: 'onlyAuthor',
  allowExcessivelyViolentUsage: false, allowExcessivelySexualUsage: false, commercialUsage: 'personalNonProfit',
  allowPoliticalOrReligiousUsage: false, allowAntisocialOrHateUsage: false, creditNotation: 'required',
  allowRedistribution: false, modification: 'prohibited', otherLicenseUrl: '',
};

const ENUMS: Partial<Record<keyof AvatarMeta, readonly string[]>> = {
  avatarPermission: ['onlyAuthor', 'onlySeparatelyLicensedPerson', 'everyone'],
  commercialUsage: ['personalNonProfit', 'personalProfit', 'corporation'],
  creditNotation: ['required', 'unnecessary'],
  modification: ['prohibited', 'allowModification', 'allowModificationRedistribution'],
};

/**
 * VRM 1.0 `VRMC_vrm.meta` → {@link AvatarMeta} (VRMC_vrm-1.0 `meta.md`): each field as the file gives it, or 1.0's
 * default when absent (the most restrictive: `onlyAuthor`, `personalNonProfit`, no redistribution, no
 * modification, credit required). A field of the wrong JSON type or outside its list is given its default with
 * one warning naming the fields; `thumbnailImage` must be an image index.
 */
export function readVrm1Meta(reading: VrmReading, meta: unknown, where: string): AvatarMeta {
  const source: Partial<Vrm1Meta> = isJsonObject(meta) ? meta : {};
  const out: Record<string, unknown> = { ...DEFAULT_META };
  const wrong: string[] = isJsonObject(meta) ? [] : [''];
  for (const key of Object.keys(DEFAULT_META) as (keyof AvatarMeta)[]) {
    const value = (source as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const fallback = DEFAULT_META[key];
    const fits = key === 'thumbnailImage' ? isIndex(value, reading.json.images?.length ?? 0)
      : Array.isArray(fallback) ? Array.isArray(value) && value.every((x) => typeof x === 'string')
      : typeof value === typeof fallback && (ENUMS[key] === undefined || ENUMS[key]!.includes(value as string));
    if (fits) out[key] = Array.isArray(value) ? [...value] : value;
    else wrong.push(key);
  }
  if (wrong.length > 0) {
    const subject = wrong[0] === '' ? `${where} is ${quoteValue(meta)}, not an object` : `${where} fields ${wrong.join(', ')} are malformed`;
    reading.warnings.push(`${reading.fileName}: ${subject}; VRM 1.0's defaults used`);
  }
  return out as unknown as AvatarMeta;
}

/** VRM 0.x `licenseName` → the licence's URL (the Creative Commons deeds VRM 0.x names). */
const CC_LICENSE_URLS: Readonly<Record<string, string>> = {
  CC0: 'https://creativecommons.org/publicdomain/zero/1.0/',
  CC_BY: 'https://creativecommons.org/licenses/by/4.0/',
  CC_BY_NC: 'https://creativecommons.org/licenses/by-nc/4.0/',
  CC_BY_SA: 'https://creativecommons.org/licenses/by-sa/4.0/',
  CC_BY_NC_SA: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
  CC_BY_ND: 'https://creativecommons.org/licenses/by-nd/4.0/',
  CC_BY_NC_ND: 'https://creativecommons.org/licenses/by-nc-nd/4.0/',
};

/**
 * VRM 0.x `VRM.meta` → {@link AvatarMeta} in VRM 1.0's words. three-vrm keeps 0.x meta as it is; Sinew maps it
 * onto 1.0's fields, a field 0.x cannot express keeping 1.0's default:
 *
 * | 0.x | 1.0 |
 * | --- | --- |
 * | `title` | `name` |
 * | `version`, `contactInformation` | the same |
 * | `author` | `authors: [author]` (none when empty) |
 * | `reference` | `references: [reference]` (none when empty) |
 * | `texture` (a texture index) | `thumbnailImage`: that texture's `source` image |
 * | `licenseName` CC0, CC_BY, … | `licenseUrl`: the Creative Commons licence's URL; `allowRedistribution` true; `modification` `prohibited` for the ND licences, else `allowModificationRedistribution`; `creditNotation` `unnecessary` for CC0 |
 * | `licenseName` `Other` | `licenseUrl` = `otherLicenseUrl` |
 * | `licenseName` `Redistribution_Prohibited` | `licenseUrl` '' , `allowRedistribution` false |
 * | `otherLicenseUrl` | `otherLicenseUrl` |
 * | `allowedUserName` OnlyAuthor / ExplicitlyLicensedPerson / Everyone | `avatarPermission` onlyAuthor / onlySeparatelyLicensedPerson / everyone |
 * | `violentUssageName`, `sexualUssageName` Allow | `allowExcessivelyViolentUsage`, `allowExcessivelySexualUsage` true |
 * | `commercialUssageName` Allow / Disallow | `commercialUsage` `corporation` (0.x's Allow limits no one) / `personalNonProfit` |
 *
 * A value outside 0.x's lists keeps 1.0's default (one warning naming the fields).
 */
export function readVrm0Meta(reading: VrmReading, meta: unknown, where: string): AvatarMeta {
  const m: Vrm0Meta = isJsonObject(meta) ? meta : {};
  const wrong: string[] = [];
  const text = (key: keyof Vrm0Meta): string => {
    const value = m[key];
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    wrong.push(key);
    return '';
  };
  const pick = <T>(key: keyof Vrm0Meta, table: Readonly<Record<string, T>>, fallback: T): T => {
    const value = m[key];
    if (value === undefined) return fallback;
    if (typeof value === 'string' && Object.hasOwn(table, value)) return table[value];
    wrong.push(key);
    return fallback;
  };
  const allow = { Allow: true, Disallow: false } as const;
  const author = text('author'), reference = text('reference'), otherLicenseUrl = text('otherLicenseUrl');
  const license = pick('licenseName', { ...Object.fromEntries(Object.keys(CC_LICENSE_URLS).map((k) => [k, k])), Other: 'Other', Redistribution_Prohibited: 'Redistribution_Prohibited' }, 'Redistribution_Prohibited');
  const cc = CC_LICENSE_URLS[license];
  let thumbnailImage = -1;
  if (m.texture !== undefined) {
    const source = isIndex(m.texture, reading.json.textures?.length ?? 0) ? reading.json.textures![m.texture].source : undefined;
    if (isIndex(source, reading.json.images?.length ?? 0)) thumbnailImage = source;
    else wrong.push('texture');
  }
  const out: AvatarMeta = {
    ...DEFAULT_META,
    name: text('title'),
    version: text('version'),
    authors: author ? [author] : [],
    contactInformation: text('contactInformation'),
    references: reference ? [reference] : [],
    thumbnailImage,
    licenseUrl: cc ?? (license === 'Other' ? otherLicenseUrl : ''),
    allowRedistribution: cc !== undefined,
    modification: cc === undefined || license.endsWith('_ND') ? 'prohibited' : 'allowModificationRedistribution',
    creditNotation: license === 'CC0' ? 'unnecessary' : 'required',
    otherLicenseUrl,
    avatarPermission: pick('allowedUserName', { OnlyAuthor: 'onlyAuthor', ExplicitlyLicensedPerson: 'onlySeparatelyLicensedPerson', Everyone: 'everyone' } as const, 'onlyAuthor'),
    allowExcessivelyViolentUsage: pick('violentUssageName', allow, false),
    allowExcessivelySexualUsage: pick('sexualUssageName', allow, false),
    commercialUsage: pick('commercialUssageName', { Allow: 'corporation', Disallow: 'personalNonProfit' } as const, 'personalNonProfit'),
  };
  if (!isJsonObject(meta) && meta !== undefined) wrong.unshift('(the whole meta)');
  if (wrong.length > 0) reading.warnings.push(`${reading.fileName}: ${where} fields ${wrong.join(', ')} are malformed; VRM 1.0's defaults used`);
  return out;
}
