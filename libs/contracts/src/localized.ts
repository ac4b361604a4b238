import { z } from 'zod';
import { LanguageCodeSchema } from './http/common.ts';

/**
 * A text of a definition (name, description): either plain text, or translations with the locale to
 * fall back to. Requests choose with LanguageCode; without it each text uses its own default locale.
 */
export const LocalizedTextSchema = z.union([
  z.string().min(1),
  z
    .strictObject({
      defaultLocale: LanguageCodeSchema.describe(
        'The locale shown when the request asks for none, or for one without a translation.',
      ),
      translations: z
        .record(LanguageCodeSchema, z.string().min(1))
        .describe('The text by locale (e.g. en, pt-BR); must include defaultLocale.'),
    })
    .refine((t) => findLocale(t.translations, t.defaultLocale) !== undefined, {
      message: 'translations must include the default locale',
    }),
]);
export type LocalizedText = z.infer<typeof LocalizedTextSchema>;

/**
 * The best text for `languageCode`: the exact locale (case-insensitive), else the same base language
 * (`pt-BR` asked, `pt` or `pt-PT` present), else the text's default locale.
 */
export function resolveText(text: LocalizedText, languageCode?: string): string {
  if (typeof text === 'string') return text;
  const fallback =
    findLocale(text.translations, text.defaultLocale) ?? Object.values(text.translations)[0] ?? '';
  if (!languageCode) return fallback;
  const exact = findLocale(text.translations, languageCode);
  if (exact !== undefined) return exact;
  const base = baseLanguage(languageCode);
  const sameBase = Object.keys(text.translations).find((locale) => baseLanguage(locale) === base);
  return sameBase === undefined ? fallback : text.translations[sameBase]!;
}

export function resolveOptionalText(text: LocalizedText | undefined, languageCode?: string): string | null {
  return text === undefined ? null : resolveText(text, languageCode);
}

function findLocale(translations: Record<string, string>, locale: string): string | undefined {
  const wanted = locale.toLowerCase();
  const key = Object.keys(translations).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : translations[key];
}

const baseLanguage = (locale: string) => locale.split('-')[0]!.toLowerCase();
