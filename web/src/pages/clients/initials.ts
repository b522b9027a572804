/** Words that do not name the company: articles, conjunctions and legal forms (S.A., S.A.C., E.I.R.L.). */
const SKIPPED = new Set(['de', 'del', 'la', 'las', 'los', 'el', 'y', 'e', 'en', 'sa', 'saa', 'sac', 'srl', 'eirl']);

/**
 * The initials a company's avatar shows when it has no logo: the first letters of its first two
 * naming words ('Corporación Andina de Alimentos S.A.A.' → 'CA').
 */
export function initialsOf(name: string): string {
  const words = name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word.length > 0 && !SKIPPED.has(word.toLowerCase()));
  const initials = words
    .slice(0, 2)
    .map((word) => word.charAt(0).toLocaleUpperCase('es-PE'))
    .join('');
  return initials || '?';
}

/**
 * Background colours for the avatar, each at least 5:1 against its white initials (WCAG 2.1 AA),
 * chosen by the name so a company keeps its colour.
 */
const AVATAR_COLOURS = ['#0f5ea8', '#1d7c38', '#5a3d9a', '#00736e', '#b0084d', '#8c1d18'] as const;

export function avatarColourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length]!;
}
