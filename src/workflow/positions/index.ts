// Source positions of a .oxoflow file: one line index, and a key-path index built by scanning the text.
export { LineIndex } from './line-index.js';
export { KeyPositions, indexKeyPositions } from './key-positions.js';
