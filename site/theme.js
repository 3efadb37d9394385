// The player's theme choice (light or dark; none: follow the device), applied before the page
// is drawn so that it never flashes in the other theme. The choice is made in the game page's
// Play options (webui/play_options.py) and kept in localStorage "bg.settings".
(function () {
  try {
    var s = JSON.parse(localStorage.getItem("bg.settings") || "{}");
    if (s && (s.theme === "light" || s.theme === "dark")) document.documentElement.dataset.theme = s.theme;
  } catch (e) { /* unreadable settings: the page reports them; the device's theme meanwhile */ }
})();
