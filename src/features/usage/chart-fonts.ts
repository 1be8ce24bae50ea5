// The chart's fonts, from npm packages (Noto Sans KR and JP) so the picture is the same everywhere; system fonts are
// never read. Both load: KR lacks Japanese forms, JP lacks Hangul, and resvg falls back glyph by glyph.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const FONT_FILES = [
  '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
];

let fontPaths: string[] | undefined;
/** The shipped fonts' paths (resolved once; a missing package throws here, at the first chart). */
export function chartFontFiles(): string[] {
  fontPaths ??= FONT_FILES.map((file) => require.resolve(file));
  return fontPaths;
}

/** The font-family list for a locale: shared ideographs in Japanese forms for a Japanese reader, Korean otherwise. */
export function chartFontFamily(locale: string | null | undefined): string {
  return locale === 'ja' ? "'Noto Sans JP', 'Noto Sans KR'" : "'Noto Sans KR', 'Noto Sans JP'";
}
