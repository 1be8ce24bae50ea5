// Served as /static/theme.js and loaded in <head>, before the page paints: the theme chosen with the switch (kept in
// this browser by enhance.js), so a dark page never flashes light. Without script the system's choice applies.
try {
  const theme = localStorage.getItem('saybot-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // Storage refused (a private window, a blocked site's data): the system's choice applies.
}
