// Each player's accuracy in a finished whole-game analysis (issue 35): the analysis's
// "accuracy" [first, second] in percent, as hexgames.accuracy computes it (lichess's
// mapping of the winning chance each move lost to an accuracy, averaged per player).

import { h } from "./dom.js";

export class AccuracyLine {
  /** game: the GameView; its analysis panel holds the whole-game analysis. */
  constructor(game) {
    this.game = game;
    this.element = h("p", {
      class: "accuracy",
      id: "accuracy",
      hidden: true,
      title: "The winning chance each move lost, as an accuracy, averaged (docs/records.md)",
    });
  }

  render() {
    const st = this.game.state;
    const run = this.game.analysis.gameAnalysis || st?.game_analysis;
    const acc = run?.result?.accuracy;
    this.element.hidden = !acc || !st;
    if (this.element.hidden) return;
    const part = (side) =>
      `${st.names[side]} ${acc[side] === null ? "–" : `${acc[side].toFixed(1)}%`}`;
    this.element.textContent = `Accuracy: ${part(0)} · ${part(1)}`;
    this.element.dataset.first = acc[0] ?? "";
    this.element.dataset.second = acc[1] ?? "";
  }
}
