// What the card games' tables share (MOMOJAN's and MICHIKAKE's `table.js` extend it): the
// observation and legal actions on show, the viewer's seat, the speed setting, and `play`, which
// shows the next observation and then pauses so a person can follow (`skip` ends the pause; the
// replay viewer and the play pages both use it). A game's table draws in `render()`.

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {{slow: number, normal: number, fast: number, instant: number}} pauses
   *   milliseconds after each shown observation, per speed setting
   */
  constructor(root, pauses) {
    this.root = root;
    this.pauses = pauses;
    this.seat = 0;
    this.obs = null;
    this.legal = [];
    this.speed = "normal";
    this.busy = false;
  }

  setSeat(seat) {
    this.seat = seat ?? 0;
  }

  setSpeed(speed) {
    this.speed = speed;
  }

  timing() {
    return { step: this.pauses[this.speed] ?? this.pauses.normal };
  }

  setLegal(legal) {
    this.legal = legal ?? [];
    if (this.obs) this.render();
  }

  show(obs, { legal } = {}) {
    this.obs = obs;
    if (legal !== undefined) this.legal = legal;
    if (obs?.seat !== undefined && obs.seat !== null) this.seat = obs.seat;
    this.render();
  }

  /** Show the next observation, then wait a moment so a person can follow (the speed setting). */
  async play(obs, { legal, fast = false } = {}) {
    this.show(obs, { legal });
    const wait = fast ? 0 : this.timing().step;
    if (!wait) return;
    this.busy = true;
    await new Promise((resolve) => {
      this.skipper = resolve;
      this.timer = setTimeout(resolve, wait);
    });
    this.busy = false;
  }

  skip() {
    clearTimeout(this.timer);
    this.skipper?.();
    this.busy = false;
  }

  render() {
    throw new Error("a table draws itself in render()");
  }
}
