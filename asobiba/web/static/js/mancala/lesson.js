// The Mancala course's board (learn.js loads /static/js/<game>/lesson.js for every game with
// lessons): the positions are drawn by the play page's own board, whose lesson mount lives with it.
export { mountLesson } from "./board.js";
