// Runs before the first paint (a classic script in <head>): applies the theme the visitor chose
// with the header's theme button, so a forced dark or light page never flashes the other one.
(function () {
  try {
    var choice = localStorage.getItem("asobiba.theme");
    if (choice === "light" || choice === "dark") {
      document.documentElement.setAttribute("data-theme", choice);
    }
  } catch (e) {
    /* storage may be unavailable (private mode); the system preference applies */
  }
})();
