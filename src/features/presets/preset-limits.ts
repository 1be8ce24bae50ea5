/** Enough for any real server; keeps /preset list and autocomplete short and a runaway admin bounded. */
export const MAX_PRESETS_PER_GUILD = 100;
