// The page's router: "#/" is the start view, "#/game/<id>" a game; reload restores either.

import { StartView } from "./start.js";
import { GameView } from "./game.js";
import { clearAlert } from "./alerts.js";

const root = document.getElementById("app");
let current = null;

function route() {
  if (current) current.destroy();
  clearAlert();
  const match = location.hash.match(/^#\/game\/([^/?#]+)/);
  if (match) {
    current = new GameView(root, decodeURIComponent(match[1]));
    document.body.dataset.view = "game";
  } else {
    current = new StartView(root);
    document.body.dataset.view = "start";
    document.title = "hexgames";
  }
}

window.addEventListener("hashchange", route);
route();
