// The chart's fonts. resvg draws text only with fonts it is given. The machine and the Docker image may have none
// that cover Korean or Japanese, so the fonts come from npm packages (Noto Sans KR and JP, SIL Open Font License) and
// are loaded by path inside node_modules; system fonts are never read, so the picture is the same everywhere.
// Both are loaded: KR lacks Japanese forms (数), JP lacks Hangul; resvg falls back glyph by glyph.
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

/**
 * The font-family list for a reader's Discord locale: shared ideographs are drawn in Japanese forms for a
 * Japanese reader, Korean forms otherwise; Latin letters and digits look the same in both.
 */
export function chartFontFamily(locale: string | null | undefined): string {
  return locale === 'ja' ? "'Noto Sans JP', 'Noto Sans KR'" : "'Noto Sans KR', 'Noto Sans JP'";
}
